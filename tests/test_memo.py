"""The one cache layer: bounded, least recently used out first, content versions kept apart."""

from __future__ import annotations

import threading

import pytest

from kiosk.memo import SIZE, Memo, memoized


def test_a_kept_value_is_given_back_and_counted():
    memo: Memo[str] = Memo()
    assert memo.get("a") is None
    memo.put("a", "A")
    assert memo.get("a") == "A"
    assert (memo.hits, memo.misses) == (1, 1)


def test_the_least_recently_used_goes_first():
    memo: Memo[int] = Memo(size=2)
    memo.put("a", 1)
    memo.put("b", 2)
    memo.get("a")  # now "b" is the least recently used
    memo.put("c", 3)
    assert (memo.get("a"), memo.get("b"), memo.get("c")) == (1, None, 3)
    assert len(memo) == 2


def test_size_zero_keeps_nothing():
    memo: Memo[int] = Memo(size=0)
    memo.put("a", 1)
    assert memo.get("a") is None and len(memo) == 0


def test_a_new_content_version_drops_the_old_entries():
    memo: Memo[str] = Memo()
    memo.put("set", "old deck", version="v1")
    memo.put("other", "kept with v1", version="v1")
    assert memo.get("set", version="v1") == "old deck"
    assert memo.get("set", version="v2") is None
    assert len(memo) == 0  # the other v1 entry went too
    memo.put("set", "new deck", version="v2")
    assert memo.get("set", version="v2") == "new deck"


def test_take_hands_the_value_over():
    memo: Memo[list[int]] = Memo()
    memo.put("game", [1, 2])
    assert memo.take("game") == [1, 2]
    assert memo.take("game") is None
    assert (memo.hits, memo.misses) == (1, 1)


def test_value_makes_once_and_keeps_falsy_values():
    memo: Memo[bool] = Memo()
    made = []

    def make() -> bool:
        made.append(1)
        return False

    assert memo.value("k", make) is False
    assert memo.value("k", make) is False
    assert made == [1]


def test_memoized_keeps_results_by_arguments_but_never_an_exception():
    calls = []

    @memoized
    def double(n: int, *, times: int = 2) -> int:
        calls.append(n)
        if n < 0:
            raise ValueError(n)
        return n * times

    assert double(3) == double(3) == 6
    assert double(3, times=3) == 9
    assert calls == [3, 3]
    for _ in range(2):
        with pytest.raises(ValueError):
            double(-1)
    assert calls == [3, 3, -1, -1]
    double.cache_clear()
    assert double(3) == 6 and calls[-1] == 3
    assert double.memo.size == SIZE


def test_threads_share_a_memo_within_its_size():
    memo: Memo[int] = Memo(size=64)

    def work(start: int) -> None:
        for n in range(start, start + 2000):
            memo.value(n % 100, lambda n=n: n % 100)
            memo.take((n + 1) % 100)

    threads = [threading.Thread(target=work, args=(n * 1000,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(memo) <= 64
    assert all(memo.get(key) in (None, key) for key in range(100))


def test_take_counts_a_value_that_does_not_fit_as_a_miss():
    memo: Memo[tuple[int, ...]] = Memo(4)
    memo.put("game", (1, 2))
    assert memo.take("game", fits=lambda kept: kept[:1] == (9,)) is None
    assert (memo.hits, memo.misses) == (0, 1)
    memo.put("game", (1, 2))
    assert memo.take("game", fits=lambda kept: kept[:1] == (1,)) == (1, 2)
    assert (memo.hits, memo.misses) == (1, 1)
