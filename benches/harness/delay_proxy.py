# benches/harness/delay_proxy.py — a TCP proxy that holds every chunk DELAY_MS in
# each direction, to stand for a relay across the internet (round trip +
# 2 × DELAY_MS) where the kernel has no netem qdisc. Order is kept per
# direction; the delay does not serialise chunks.
#   python3 delay_proxy.py LISTEN_PORT TARGET_PORT DELAY_MS
# e.g. a relay 10 ms away in front of the bench rig's Postfix:
#   python3 delay_proxy.py 12125 12025 5 &
#   WILDT_RIG_SMTP_PORT=12125 python3 bench_servers.py --games 250 --out servers-rtt10.json
# Does IO: listens on 127.0.0.1:LISTEN_PORT, connects to 127.0.0.1:TARGET_PORT.
import asyncio
import sys
import time

LISTEN, TARGET, DELAY = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000


async def pump(reader, writer):
    queue = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(65536)
            await queue.put((time.monotonic() + DELAY, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                try:
                    writer.write_eof()
                except OSError:
                    pass
                return
            writer.write(data)
            await writer.drain()

    await asyncio.gather(read(), write(), return_exceptions=True)
    writer.close()


async def handle(client_r, client_w):
    server_r, server_w = await asyncio.open_connection("127.0.0.1", TARGET)
    await asyncio.gather(pump(client_r, server_w), pump(server_r, client_w), return_exceptions=True)


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", LISTEN)
    async with server:
        await server.serve_forever()


asyncio.run(main())
