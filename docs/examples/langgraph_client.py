"""Run the `quick` graph of a `langgraph dev` server through langgraph-sdk, from this folder:

    LANGGRAPH_CLI_NO_ANALYTICS=1 langgraph dev --no-browser --config ../../langgraph.json --port 2024 &
    python langgraph_client.py      # LANGGRAPH_URL=http://127.0.0.1:PORT if 2024 was taken
"""

import asyncio
import os

from langgraph_sdk import get_client


async def main() -> None:
    client = get_client(url=os.environ.get("LANGGRAPH_URL", "http://127.0.0.1:2024"))
    thread = await client.threads.create()
    request = {"paths": ["orders.csv"], "question": "Which product has the highest average quantity per order?"}
    print(">>> input:", request)
    async for part in client.runs.stream(thread["thread_id"], "quick", input=request, stream_mode=["custom", "values"]):
        if part.event == "custom" and part.data["kind"] == "node_end":
            print(f"  node {part.data['node']}: {part.data['outcome']} in {part.data['seconds']} s")
        elif part.event == "values" and part.data.get("answer"):
            values = part.data
    for key in ("answer", "result", "code", "report_path", "usage"):
        print(f"\n{key}:\n{values[key]}")


asyncio.run(main())
