"""``python -m dsagent.web.launch run app.py …``: Streamlit's own command line, with its outside calls cut.

Streamlit looks up the machine's external IP at ``checkip.amazonaws.com`` to print a "Network URL"
(hidden here: ``logger.hideWelcomeMessage``) and, for a browser whose origin it does not know, to
check the origin. Neither is needed: the lookup answers "unknown" without a request, so ``dsagent
web`` makes no network call of its own (usage statistics are off by flag, docs/web.md). With an
access token set, :mod:`dsagent.web.gate` holds Streamlit's own routes to it as well.
"""

from __future__ import annotations

import sys


def _no_request(url: str, timeout: float = 5) -> None:
    return None


def main() -> int:
    from streamlit import net_util

    net_util._make_blocking_http_get = _no_request  # the external-IP lookup: never a request
    from dsagent.web.gate import install

    install()  # with an access token, Streamlit's own routes (metrics, uploads) need it too
    from streamlit.web import cli

    return cli.main(prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
