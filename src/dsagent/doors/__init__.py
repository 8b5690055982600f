"""Doors into the same core from where data people already work: an MCP server, a LangGraph
server, notebooks. Each is a thin shell over :class:`dsagent.session.Session`; none copies a workflow."""
