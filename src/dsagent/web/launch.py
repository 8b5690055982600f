"""``python -m dsagent.web.launch run app.py …``: Streamlit's own command line, with its outside calls cut.

Streamlit looks up the machine's external IP at ``checkip.amazonaws.com`` to print a "Network URL"
(hidden here: ``logger.hideWelcomeMessage``) and, for a browser whose origin it does not know, to
check the origin. Neither is needed: the lookup answers "unknown" without a request, so ``dsagent
web`` makes no network call of its own (usage statistics are off by flag, docs/web.md).
"""

from __future__ import annotations

import sys


def _no_request(url: str, timeout: float = 5) -> None:
    return None


def main() -> int:
    from streamlit import net_util

    net_util._make_blocking_http_get = _no_request  # the external-IP lookup: never a request
    from streamlit.web import cli

    return cli.main(prog_name="streamlit")


if __name__ == "__main__":
    sys.exit(main())
