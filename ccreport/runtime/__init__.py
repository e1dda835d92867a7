"""What a build needs around the analyses: the output folder, provenance, dates, progress,
interrupts, threads."""
