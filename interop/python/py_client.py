# One interop cell: the official MCP Python SDK client (mcp, pinned in requirements.lock) against a server, in
# the legacy era (initialize handshake) or the modern one (server/discover, 2026-07-28).
# Checks: the negotiated era, a listing across pages, a get with arguments, a -32602 for a missing required argument,
# a completion, every resource listed (across pages) and read, the skill files among them (skill://...) read as text or
# as base64 blobs by their type, and a list_changed after a library edit (legacy: the notification on the session;
# modern: an event on a subscriptions/listen stream). Skills: in the modern era the server must declare the Skills
# extension (io.modelcontextprotocol/skills); skills/list and skills/get, which the SDK has no typed method for, go
# through its generic send_request, and every manifest entry's size and sha256 digest must equal the bytes
# resources/read gives. In the legacy era the extension must be absent and skills/list unknown (-32601). With
# --library, every skill file's bytes must also equal the file under that folder; with --skill-prompt NAME, the skill
# offered as a prompt must embed its SKILL.md (equal to the file), link its other files and end with the task.
# --prompts-only leaves out the resources and skills checks, for a server that offers prompts alone.
#
#   python py_client.py --era legacy|modern (--stdio "server command" | --url URL)
#       --get NAME --arg k=v ... --expect TEXT --missing NAME --complete NAME:ARG:PREFIX
#       [--edit-file PATH] [--min-pages N] [--bearer TOKEN] [--library DIR] [--skill-prompt NAME] [--library PATH] [--prompts-only]
#
# Prints one JSON line {"ok":true,...} and exits 0, or prints the failure on stderr and exits 1.
import argparse
import asyncio
import base64
import hashlib
import json
import os
import shlex
import sys
from typing import Any

import httpx2
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

TIMEOUT = 60
SKILLS = "io.modelcontextprotocol/skills"
TEXT_TYPES = ("application/json", "application/yaml", "application/xml")


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
    p.add_argument("--library")
    p.add_argument("--skill-prompt")
    p.add_argument("--prompts-only", action="store_true")
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

        if args.skill_prompt:
            report["skillPrompt"] = await skill_prompt(client, args.skill_prompt, args.library)

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

        if not args.prompts_only:
            report.update(await resources_and_skills(client, args, modern))

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


async def resources_and_skills(client, args, modern):
    """Every resource listed (across pages) and read, the skill files among them, and the Skills extension."""
    report = {}
    listed, resource_pages = [], 0
    cursor = None
    while True:
        page = await client.list_resources(cursor=cursor)
        resource_pages += 1
        listed += page.resources
        cursor = page.next_cursor
        if not cursor:
            break
    read, skill_files = 0, {}
    for r in listed:
        contents = await client.read_resource(r.uri)
        if not contents.contents or str(contents.contents[0].uri) != str(r.uri):
            raise AssertionError(f"reading {r.uri}: {contents}")
        read += 1
        if str(r.uri).startswith("skill://"):
            skill_files[str(r.uri)] = skill_bytes(contents.contents, r.mime_type)
    report["resourcesRead"] = read
    report["resourcePages"] = resource_pages
    report["skillFilesRead"] = len(skill_files)
    report["skillBlobs"] = sum(1 for kind, _ in skill_files.values() if kind == "blob")
    if args.library:
        report["skillFilesMatchingDisk"] = match_disk(skill_files, args.library)
    if modern:
        report.update(await modern_skills(client, skill_files))
    else:
        report.update(await legacy_skills(client))
    return report


def skill_bytes(contents, mime_type):
    """A skill file's bytes from its one content: text for a text type, base64 blob otherwise."""
    if len(contents) != 1:
        raise AssertionError(f"{contents[0].uri}: {len(contents)} contents, expected one")
    c = contents[0]
    text_type = bool(mime_type) and (
        mime_type.startswith("text/") or mime_type in TEXT_TYPES or mime_type.endswith(("+json", "+xml"))
    )
    if isinstance(c, types.TextResourceContents):
        if not text_type:
            raise AssertionError(f"{c.uri}: text contents for {mime_type}")
        return "text", c.text.encode("utf-8")
    if isinstance(c, types.BlobResourceContents):
        if text_type:
            raise AssertionError(f"{c.uri}: blob contents for {mime_type}")
        return "blob", base64.b64decode(c.blob, validate=True)
    raise AssertionError(f"{c.uri}: neither text nor blob: {c}")


async def skill_prompt(client, name, library):
    """A skill offered as a prompt: its SKILL.md embedded (equal to the file), then its other files (text ones
    embedded, each equal to its file; the rest linked), the task last."""
    got = await client.get_prompt(name, {"task": "the March outage"})
    kinds = [m.content.type for m in got.messages]
    first = got.messages[0].content
    if kinds[0] != "resource" or not str(first.resource.uri).endswith("/SKILL.md"):
        raise AssertionError(f"{name}: the first message is no embedded SKILL.md: {kinds}")
    uri = str(first.resource.uri)
    path = os.path.join(library, *uri.removeprefix("skill://").split("/"))
    with open(path, "rb") as f:
        if first.resource.text.encode("utf-8") != f.read():
            raise AssertionError(f"{name}: the embedded {uri} differs from {path}")
    last = got.messages[-1].content
    if kinds[-1] != "text" or "the March outage" not in last.text:
        raise AssertionError(f"{name}: the task is not the last message: {kinds}")
    files = []
    for m in got.messages[1:-1]:
        if m.content.type == "resource":
            file_uri = str(m.content.resource.uri)
            file_path = os.path.join(library, *file_uri.removeprefix("skill://").split("/"))
            with open(file_path, "rb") as f:
                if m.content.resource.text.encode("utf-8") != f.read():
                    raise AssertionError(f"{name}: the embedded {file_uri} differs from {file_path}")
            files.append(file_uri)
    return {"embedded": uri, "files": files, "links": kinds.count("resource_link")}


def match_disk(skill_files, library):
    """How many skill files equal, byte for byte, the file at skill://<path> under the library folder."""
    for uri, (_, data) in skill_files.items():
        path = os.path.join(library, *uri.removeprefix("skill://").split("/"))
        with open(path, "rb") as f:
            if f.read() != data:
                raise AssertionError(f"{uri}: the bytes read differ from {path}")
    return len(skill_files)


async def raw(client, method, params):
    """A request the SDK has no typed method for, sent through its generic send_request (the session stamps _meta)."""
    request = types.Request[dict[str, Any], str](method=method, params=params)
    return await client.session.send_request(request, TypeAdapter(dict[str, Any]))


async def modern_skills(client, skill_files):
    """The Skills extension as declared and served: every manifest entry checked against resources/read."""
    extensions = client.server_capabilities.extensions or {}
    if SKILLS not in extensions:
        raise AssertionError(f"{SKILLS} not declared: extensions {extensions}")
    skills, cursor = [], None
    while True:
        page = await raw(client, "skills/list", {"cursor": cursor} if cursor else {})
        skills += page["skills"]
        cursor = page.get("nextCursor")
        if not cursor:
            break
    verified, covered = 0, set()
    for skill in skills:
        got = await raw(client, "skills/get", {"uri": skill["uri"]})
        if got["skill"] != skill:
            raise AssertionError(f"skills/get {skill['uri']} differs from its skills/list entry: {got['skill']}")
        for entry in skill["resources"]:
            uri = entry["uri"]
            if uri not in skill_files:
                raise AssertionError(f"{uri} is in the manifest of {skill['uri']} but not in resources/list")
            data = skill_files[uri][1]
            digest = "sha256:" + hashlib.sha256(data).hexdigest()
            if entry["size"] != len(data) or entry["digest"] != digest:
                raise AssertionError(f"{uri}: manifest {entry['size']} {entry['digest']}, read {len(data)} {digest}")
            covered.add(uri)
            verified += 1
    if covered != set(skill_files):
        raise AssertionError(f"skill files listed but in no manifest: {sorted(set(skill_files) - covered)}")
    return {
        "skillsExtension": extensions[SKILLS],
        "skills": [s["frontmatter"]["name"] for s in skills],
        "skillFilesVerified": verified,
    }


async def legacy_skills(client):
    """Before 2026-07-28 the extension has nowhere to be declared: absent, and skills/list unknown."""
    extensions = client.server_capabilities.extensions
    if extensions and SKILLS in extensions:
        raise AssertionError(f"{SKILLS} declared in the legacy era: {extensions}")
    try:
        await raw(client, "skills/list", {})
        raise AssertionError("skills/list answered in the legacy era")
    except MCPError as e:
        if e.error.code != types.METHOD_NOT_FOUND:
            raise AssertionError(f"skills/list: expected -32601, got {e.error.code}: {e.error.message}") from e
    return {"skillsExtension": None, "skillsList": "-32601"}


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
