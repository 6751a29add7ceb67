"""A ClickHouse server for the tests, from chDB's engine library.

    python3 clickhouse-server.py LIBCHDB DATA_DIR HTTP_PORT TCP_PORT [CONFIG_FILE]

The library's command-line entry point (`query_stable_v2`) starts ClickHouse's HTTP and
native servers on 127.0.0.1 and keeps them serving while its query (a long `sleep`)
runs. The node `Session` API refuses to start servers, hence this launcher. The server
is unauthenticated: it listens on loopback only. It lives as long as this process, and
this process as long as its standard input is open, so a test run that dies takes its
server along instead of leaving it listening.
"""

import ctypes
import os
import sys
import threading


class Result(ctypes.Structure):
    # chdb.h's `struct local_result_v2`.
    _fields_ = [
        ("buf", ctypes.c_char_p),
        ("len", ctypes.c_size_t),
        ("_vec", ctypes.c_void_p),
        ("elapsed", ctypes.c_double),
        ("rows_read", ctypes.c_uint64),
        ("bytes_read", ctypes.c_uint64),
        ("error_message", ctypes.c_char_p),
    ]


def serve(library, data_dir, http_port, tcp_port, config):
    chdb = ctypes.CDLL(library)
    chdb.query_stable_v2.restype = ctypes.POINTER(Result)
    chdb.query_stable_v2.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    args = [
        "clickhouse",
        "--listen_host=127.0.0.1",
        f"--http_port={http_port}",
        f"--tcp_port={tcp_port}",
        f"--path={data_dir}",
        *([f"--config-file={config}"] if config else []),
        # `sleep` refuses more than 3 s per block unless this lifts the limit.
        "--function_sleep_max_microseconds_per_block=0",
        "--multiquery",
        # A year: the servers stop when this query ends.
        "--query=SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; "
        "SELECT sleep(31536000) FORMAT Null",
    ]
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    result = chdb.query_stable_v2(len(args), argv)
    error = result.contents.error_message if result else b"no result"
    message = error.decode(errors="replace").strip() if error else "the query ended"
    print(f"clickhouse-server: stopped: {message}", file=sys.stderr, flush=True)
    os._exit(1)


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    library, data_dir, http_port, tcp_port = sys.argv[1:5]
    config = sys.argv[5] if len(sys.argv) == 6 else None
    # ctypes releases the GIL during the call: this thread keeps reading standard input.
    threading.Thread(
        target=serve, args=(library, data_dir, http_port, tcp_port, config), daemon=True
    ).start()
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except KeyboardInterrupt:
        pass
    os._exit(0)


if __name__ == "__main__":
    main()
