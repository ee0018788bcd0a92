import cycle_a  # a circular import: fine while nothing of cycle_a is used here

Z = 2
