import cycle_b

Y = cycle_b.Z + 1
