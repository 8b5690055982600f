"""An MCP client session with `dsagent mcp` over stdio (the SDK's own client), run from this folder:

    python mcp_client.py            # uses the model of your settings (default: the embedded one)
"""

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main() -> None:
    server = StdioServerParameters(command="dsagent", args=["mcp"])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        print("tools:", ", ".join(t.name for t in tools))
        for name, args in [
            ("profile_data", {"paths": ["orders.csv"]}),
            ("ask", {"paths": ["orders.csv"], "question": "What is the total amount per region, in euros?"}),
            ("ask", {"paths": ["/etc/passwd"], "question": "Who is in it?"}),
        ]:
            print(f"\n>>> {name}({args})")
            result = await session.call_tool(name, args)
            failed = getattr(result, "is_error", None) or getattr(result, "isError", False)
            print(("ERROR: " if failed else "") + "\n".join(c.text for c in result.content if c.type == "text"))


anyio.run(main)
