X = 1
def f(:
    pass
