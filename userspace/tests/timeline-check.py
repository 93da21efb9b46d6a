#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# timeline-check.py - count what "stopwatch script --perfetto/--chrome"
# wrote, read independently of the program: the Perfetto trace with a
# protobuf wire-format reader of its own (no protoc, no generated code;
# the field numbers are Perfetto's), the Chrome trace with Python's json.
#
# usage: timeline-check.py perfetto FILE   prints key=value counts
#        timeline-check.py chrome FILE
#        timeline-check.py perfetto FILE chrome FILE   both, the keys
#                                         prefixed "perfetto." and "chrome."
# Exits 1 (saying why) when the file does not hold together: a slice end
# without its begin, a sample whose call stack or frame was never
# interned, a stack frame whose parent is missing.
import json
import sys


def fields(buf):
    """(field number, wire type, value) of one message's bytes."""
    i, n = 0, len(buf)
    while i < n:
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 2:
            ln, i = varint(buf, i)
            v = buf[i:i + ln]
            if len(v) != ln:
                raise ValueError("truncated field %d" % num)
            i += ln
        elif wt == 1:
            v, i = buf[i:i + 8], i + 8
        elif wt == 5:
            v, i = buf[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v


def varint(buf, i):
    v = s = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7f) << s
        s += 7
        if not b & 0x80:
            return v, i


def perfetto(path):
    data = open(path, "rb").read()
    c = dict(packets=0, begin=0, end=0, instant=0, samples=0,
             counter_values=0, process_tracks=0, thread_tracks=0,
             counter_tracks=0)
    names, stacks, frames, thread_names = {}, set(), set(), set()
    events = []
    for num, wt, pkt in fields(data):
        if num != 1 or wt != 2:
            raise ValueError("not a Trace: field %d" % num)
        c["packets"] += 1
        ts, te, td, ps = 0, None, None, None
        for f, _, v in fields(pkt):
            if f == 8:
                ts = v
            elif f == 11:
                te = v
            elif f == 60:
                td = v
            elif f == 66:
                ps = v
            elif f == 12:
                for g, _, e in fields(v):
                    d = {h: x for h, _, x in fields(e)}
                    if g == 2:
                        names[d[1]] = d[2].decode()
                    elif g == 6:
                        frames.add(d[1])
                    elif g == 7:
                        stacks.add(d[1])
                        for h, w, x in fields(e):
                            if h == 2 and w == 0 and x not in frames:
                                raise ValueError("call stack %d: frame %d not interned" % (d[1], x))
        if td is not None:
            d = {h: x for h, _, x in fields(td)}
            if 3 in d:
                c["process_tracks"] += 1
            if 4 in d:
                c["thread_tracks"] += 1
                t = {h: x for h, _, x in fields(d[4])}
                if 5 in t:
                    thread_names.add(t[5].decode())
            if 8 in d:
                c["counter_tracks"] += 1
        if te is not None:
            typ, track, name = 0, 0, None
            for h, w, x in fields(te):
                if h == 9:
                    typ = x
                elif h == 11:
                    track = x
                elif h == 10:
                    name = x
                elif h == 12:
                    c["counter_values"] += 1
            if typ == 1:
                c["begin"] += 1
                if name not in names:
                    raise ValueError("slice name iid %s not interned" % name)
                events.append((ts, 1, track))
            elif typ == 2:
                c["end"] += 1
                events.append((ts, 0, track))
            elif typ == 3:
                c["instant"] += 1
        if ps is not None:
            c["samples"] += 1
            d = {h: x for h, _, x in fields(ps)}
            if d.get(4) not in stacks:
                raise ValueError("sample: call stack %s not interned" % d.get(4))
    # in time order (a begin before an end at the same time), every end
    # closes a slice its track has open
    depth = {}
    for ts, kind, track in sorted(events, key=lambda e: (e[0], -e[1])):
        depth[track] = depth.get(track, 0) + (1 if kind else -1)
        if depth[track] < 0:
            raise ValueError("slice end at %d on track %d closes nothing" % (ts, track))
    c["open"] = sum(depth.values())
    c["names"] = ",".join(sorted(set(names.values())))
    c["threads"] = ",".join(sorted(thread_names))
    return c


def chrome(path):
    d = json.load(open(path))
    c = {}
    for e in d["traceEvents"]:
        c["ph_" + e["ph"]] = c.get("ph_" + e["ph"], 0) + 1
    sf = d.get("stackFrames", {})
    for k, v in sf.items():
        if "parent" in v and v["parent"] not in sf:
            raise ValueError("stack frame %s: parent %s missing" % (k, v["parent"]))
    for e in d["traceEvents"]:
        if "sf" in e and e["sf"] not in sf:
            raise ValueError("event at %s: stack frame %s missing" % (e["ts"], e["sf"]))
    c["stack_frames"] = len(sf)
    c["names"] = ",".join(sorted({e["name"] for e in d["traceEvents"] if e["ph"] == "X"}))
    c["threads"] = ",".join(sorted({e["args"]["name"] for e in d["traceEvents"]
                                    if e["ph"] == "M" and e["name"] == "thread_name"}))
    return c


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2 or any(a not in ("perfetto", "chrome") for a in args[::2]):
        sys.exit("usage: timeline-check.py perfetto|chrome FILE [perfetto|chrome FILE]")
    for kind, path in zip(args[::2], args[1::2]):
        try:
            c = (perfetto if kind == "perfetto" else chrome)(path)
        except (ValueError, KeyError, IndexError, json.JSONDecodeError) as e:
            sys.exit("timeline-check.py: %s: %s" % (path, e))
        pre = kind + "." if len(args) > 2 else ""
        for k in sorted(c):
            print("%s%s=%s" % (pre, k, c[k]))


main()
