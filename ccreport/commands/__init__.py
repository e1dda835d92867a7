"""The commands of the ccreport script: build, serve and verify (cli.py parses, these run)."""
