"""A project's inputs: the manifest and its checks, the data files, settings, naming and the starter
project."""
