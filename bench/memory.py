"""The peak resident memory of the benchmark's process while a part runs."""

import threading


class PeakMemory:
    """The largest resident size of this process while the block runs (/proc/self/status, read every 20 ms by
    a thread): what a worker re-rating the whole history needs."""

    def __enter__(self):
        self.start = self.peak = self._rss()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self):
        while not self._done.wait(0.02):
            self.peak = max(self.peak, self._rss())

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, self._rss())

    @staticmethod
    def _rss() -> int:
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0
