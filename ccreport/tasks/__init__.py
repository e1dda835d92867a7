"""The battery: its plan of tasks, the task kinds that run the analyses, the executors and the
cache."""
