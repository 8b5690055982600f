"""Reports saved beside each run's code and figures.

``model`` (Report, Section) · ``build`` (a workflow's final output → Report; a logged run → Report) ·
``markdown`` / ``html`` / ``notebook`` (the three renderers) · ``export`` (format dispatch, ``dsagent
report``). Nothing heavy is imported here: the session and the CLI import what they use.
"""
