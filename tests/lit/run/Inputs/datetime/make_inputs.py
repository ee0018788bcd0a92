"""Inputs of run/datetime_arithmetic.pyk: dates before and after 1970, NaT in each input, months
across leap years, and the output arrays (zeros) it writes."""
import sys

import numpy as np

out = sys.argv[1]
n = 40
rng = np.random.default_rng(1)
dt = (np.datetime64("1969-01-01", "D") + rng.integers(-5000, 5000, n)).astype("datetime64[D]")
dt[3] = np.datetime64("NaT")
td = rng.integers(-100, 100, n).astype("timedelta64[D]")
td[0] = np.timedelta64(7, "D")
td[5] = np.timedelta64("NaT")
tdh = rng.integers(-3000, 3000, n).astype("timedelta64[h]")
tdh[7] = np.timedelta64("NaT")
dtm = (np.datetime64("1960-01", "M") + rng.integers(-400, 400, n)).astype("datetime64[M]")
dtm[9] = np.datetime64("NaT")
arrays = dict(dt=dt, td=td, tdh=tdh, dtm=dtm,
              otd=np.zeros((n, 11), "timedelta64[D]"), of=np.zeros((n, 2)),
              ob=np.zeros((n, 8), bool), odt=np.zeros((n, 4), "datetime64[D]"),
              otdh=np.zeros((n, 3), "timedelta64[h]"))
for name, value in arrays.items():
    np.save("%s/%s.npy" % (out, name), value)
