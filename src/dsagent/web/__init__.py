"""The web front end: a Streamlit app over the same :class:`~dsagent.session.Session` the CLI uses.

``dsagent web`` runs :mod:`dsagent.web.app` with Streamlit (:mod:`dsagent.web.server`); nothing here
is imported by the CLI until that command runs.
"""
