"""The commands of the ccreport script: build, serve and verify (cli.py parses, these run)."""

PORT_MIN, PORT_MAX = 1, 65535  # the ports ``ccreport serve`` accepts (cli.py checks them)
