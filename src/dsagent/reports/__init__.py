"""Reports saved beside each run's code and figures."""
