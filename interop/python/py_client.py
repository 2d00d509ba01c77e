# One interop cell: the official MCP Python SDK client (mcp, pinned in requirements.lock) against a server, in
# the legacy era (initialize handshake) or the modern one (server/discover, 2026-07-28).
# Checks: the negotiated era, a listing across pages, a get with arguments, a -32602 for a missing required argument,
# a completion, every resource listed and read, and a list_changed after a library edit (legacy: the notification on
# the session; modern: an event on a subscriptions/listen stream).
#
#   python py_client.py --era legacy|modern (--stdio "server command" | --url URL)
#       --get NAME --arg k=v ... --expect TEXT --missing NAME --complete NAME:ARG:PREFIX
#       [--edit-file PATH] [--min-pages N] [--bearer TOKEN]
#
# Prints one JSON line {"ok":true,...} and exits 0, or prints the failure on stderr and exits 1.
import argparse
import asyncio
import json
import shlex
import sys

import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

TIMEOUT = 60


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--era", choices=["legacy", "modern"], required=True)
    p.add_argument("--stdio")
    p.add_argument("--url")
    p.add_argument("--get", required=True)
    p.add_argument("--arg", action="append", default=[])
    p.add_argument("--expect", required=True)
    p.add_argument("--missing", required=True)
    p.add_argument("--complete", required=True)
    p.add_argument("--edit-file")
    p.add_argument("--min-pages", type=int, default=1)
    p.add_argument("--bearer")
    return p.parse_args()


def target(args):
    if args.stdio:
        words = shlex.split(args.stdio)
        return StdioServerParameters(command=words[0], args=words[1:])
    if args.bearer:
        http = httpx2.AsyncClient(headers={"Authorization": "Bearer " + args.bearer})
        return streamable_http_client(args.url, http_client=http)
    return args.url


async def cell(args):
    report = {"ok": False, "era": args.era}
    changed = asyncio.Event()

    async def on_message(message):
        # Legacy sessions hear list_changed as a notification on the session.
        if isinstance(message, types.PromptListChangedNotification):
            changed.set()

    mode = "legacy" if args.era == "legacy" else "auto"
    async with Client(target(args), mode=mode, message_handler=on_message, read_timeout_seconds=TIMEOUT,
                      cache=None) as client:
        report["protocolVersion"] = client.protocol_version
        modern = client.protocol_version == "2026-07-28"
        if modern != (args.era == "modern"):
            raise AssertionError(f"negotiated {client.protocol_version} for the {args.era} era")
        info = client.server_info
        report["serverInfo"] = info.name if info else None

        names, pages, cursor = [], 0, None
        while True:
            page = await client.list_prompts(cursor=cursor)
            pages += 1
            names += [p.name for p in page.prompts]
            cursor = page.next_cursor
            if not cursor:
                break
        if pages < args.min_pages or len(names) != len(set(names)):
            raise AssertionError(f"{pages} page(s), names {names}")
        report["prompts"] = len(names)
        report["pages"] = pages

        arguments = dict(kv.split("=", 1) for kv in args.arg)
        got = await client.get_prompt(args.get, arguments)
        texts = [m.content.text for m in got.messages if getattr(m.content, "type", None) == "text"]
        if not any(args.expect in t for t in texts):
            raise AssertionError(f"{args.expect!r} not in {texts}")
        report["get"] = "ok"

        try:
            await client.get_prompt(args.missing, {})
            raise AssertionError(f"{args.missing} rendered without its required argument")
        except MCPError as e:
            if e.error.code != types.INVALID_PARAMS:
                raise AssertionError(f"expected -32602, got {e.error.code}: {e.error.message}") from e
        report["missingArgument"] = "-32602"

        prompt, argument, prefix = args.complete.split(":", 2)
        completion = await client.complete(
            types.PromptReference(type="ref/prompt", name=prompt), {"name": argument, "value": prefix}
        )
        values = completion.completion.values
        if not values or not all(v.startswith(prefix) for v in values):
            raise AssertionError(f"completion of {prefix!r}: {values}")
        report["completion"] = values

        resources = await client.list_resources()
        read = 0
        for r in resources.resources:
            contents = await client.read_resource(r.uri)
            if not contents.contents or str(contents.contents[0].uri) != str(r.uri):
                raise AssertionError(f"reading {r.uri}: {contents}")
            read += 1
        report["resourcesRead"] = read

        if args.edit_file:
            edit = (
                "---\ndescription: added while a Python client was connected\n---\nHello from the edit.\n"
            )
            if modern:
                async with client.listen(prompts_list_changed=True) as sub:
                    with open(args.edit_file, "w", encoding="utf-8") as f:
                        f.write(edit)
                    async with asyncio.timeout(30):
                        async for _event in sub:
                            break
            else:
                with open(args.edit_file, "w", encoding="utf-8") as f:
                    f.write(edit)
                async with asyncio.timeout(30):
                    await changed.wait()
            report["listChanged"] = "ok"
            after = []
            cursor = None
            while True:
                page = await client.list_prompts(cursor=cursor)
                after += [p.name for p in page.prompts]
                cursor = page.next_cursor
                if not cursor:
                    break
            if len(after) != len(names) + 1:
                raise AssertionError(f"after the edit: {after}")
    report["ok"] = True
    return report


def main():
    args = parse_args()
    try:
        report = asyncio.run(asyncio.wait_for(cell(args), 120))
    except BaseException as e:  # a failed cell prints why and exits 1
        while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            e = e.exceptions[0]  # the task group's one failure, not its wrapper
        print(f"py_client failed: {type(e).__name__}: {e}", file=sys.stderr)
        raise SystemExit(1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
