"""The workflows, one package each, built from the seeds in the design documents."""

WORKFLOWS = ("quick",)
