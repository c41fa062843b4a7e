"""The fidelity oracle: reads a conversion's source and output independently of toolport and
checks that every difference of meaning is named by a diagnostic in the run's report."""
