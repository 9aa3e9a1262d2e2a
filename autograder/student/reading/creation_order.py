"""The order in which a module created its parameters, read from the numbers they hold.

Under a seed, a module that creates its parts in another order than the contract's (a key drawn
before the query, say) holds other random numbers than the book's, and a right forward then prints
other numbers than the book. Neither side charges that (ARCHITECTURE.md, "Fairness"): the hidden
tests note it, and the public check notes it and puts the book's numbers in, so that it compares
the computation. Both read the order here, the same way.

A part is an ``nn.Linear`` (drawn as a fresh layer of its sizes draws it) or a matrix drawn with
``torch.rand`` (SelfAttention_v1's parameters). Drawing never changes torch's generator.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import torch
from torch import nn

Part = nn.Linear | torch.Tensor


def drawable(parts: Mapping[str, object]) -> bool:
    """Whether every part is a kind drawn here (a layer or a matrix): others (a wrapper's heads,
    an attribute missing) are created in ways this cannot replay."""
    return bool(parts) and all(isinstance(part, nn.Linear | nn.Parameter) for part in parts.values())


def drawn(parts: Mapping[str, Part], order: tuple[str, ...], seed: int) -> dict[str, torch.Tensor]:
    """What each part holds when the parts are created in ``order`` right after ``seed``, by the
    parameter's full name (``W_query.weight``, or ``W_query`` for a matrix)."""
    values = {}
    with torch.random.fork_rng(devices=[]):
        torch.random.default_generator.manual_seed(seed)
        for name in order:
            part = parts[name]
            if isinstance(part, nn.Linear):
                layer = nn.Linear(part.in_features, part.out_features, bias=part.bias is not None)
                values |= {f"{name}.{kind}": value.detach() for kind, value in layer.named_parameters()}
            else:
                values[name] = torch.rand(part.shape)
    return values


def created_order(held: Mapping[str, torch.Tensor], parts: Mapping[str, Part], seed: int) -> tuple[str, ...] | None:
    """The order in which ``parts`` (by name, in the contract's order) were created after ``seed``,
    given what they hold (``held``, by the parameter's full name): the contract's order when they
    hold the book's numbers, another when they hold the numbers of that order, None when no order
    gives them (another initialisation, or another stream)."""

    def holds(order: tuple[str, ...]) -> bool:
        return all(name in held and torch.equal(held[name].detach().cpu(), value)
                   for name, value in drawn(parts, order, seed).items())

    return next((order for order in itertools.permutations(parts) if holds(order)), None)
