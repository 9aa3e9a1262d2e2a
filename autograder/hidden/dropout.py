"""Dropout, tested by invariants: never by an exact random mask.

``expect_zero_fraction`` checks that about a fraction p of the elements was zeroed. A
*weights-revealing* attention module shows its attention weights in its output, so that a test
can see where dropout acted: token j is the one-hot vector e_j, and each head's values map it
to e_j followed by a 1, so a head's output row for query i is its attention weights followed by
their sum (with an identity ``out_proj`` for multi-head attention). Dropout on the weights keeps
that last column equal to the sum of the others; dropout on the output does not.

Extra dropout is no mistake: GPT-2 drops the attention weights and, after ``out_proj``, the
output too (its residual dropout). When the weights do not read right in training mode, the
check is tried again with each of the module's ``nn.Dropout`` layers switched off in turn; it
passes when the weights are dropped as they should be with one of them off.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch

from autograder.findings.finding import Failure, Finding, finding
from autograder.hidden import diagnosis, wrong_outputs
from autograder.hidden.compare import TOLERANCES, What, expect, expect_structure, expect_tensor
from autograder.hidden.modules import call_text, expect_sequences_apart, reference_module, student_module
from autograder.probes.client import RemoteObject, StudentError, Submission

BATCH, NUM_TOKENS = 16, 8


def expect_dropped_one_by_one(kept: torch.Tensor, what: What) -> None:
    """Each element is kept or dropped on its own: no whole slice (a row, a sample) goes at once,
    as it would with one draw per row or per sample (drop-path, or a mask of the wrong shape).
    With 40 x 50 elements and p <= 0.75, an honest mask keeps a whole row of 50 together with
    probability below 1e-6."""
    for dim in range(kept.ndim):
        if kept.shape[dim] > 1 and bool(kept.any()) and not bool(kept.all()) and torch.equal(
                kept, kept.narrow(dim, 0, 1).expand_as(kept)):
            slices = kept.select(dim, 0)
            raise Failure(finding("dropped_together", "dropout_whole_rows", what=what, dim=dim,
                                  kept=int(slices.sum()), total=slices.numel()))


def expect_zero_fraction(kept: torch.Tensor, p: float, what: What) -> None:
    """About a fraction p of the elements is zeroed: within 5 standard deviations."""
    zeroed = 1.0 - kept.double().mean().item()
    tolerance = 5 * math.sqrt(p * (1 - p) / kept.numel())
    if abs(zeroed - p) <= tolerance:
        return
    mistake = None
    if zeroed == 0.0:
        mistake = "dropout_missing"
    elif abs(zeroed - (1 - p)) <= tolerance:
        mistake = "dropout_keep_probability"
    elif abs(zeroed - (1 - (1 - p) ** 2)) <= tolerance:
        mistake = "dropout_applied_twice"
    raise Failure(finding("zero_fraction", mistake, what=what, fraction=f"{zeroed:.1%}", p=p,
                          expected_fraction=f"{p:.0%}"))


def _dropped_in_eval(actual: torch.Tensor, weights: torch.Tensor, p: float) -> Finding | None:
    """The evidence of a dropout that acts in eval mode: of the weights the reference keeps, about
    a fraction p is 0 (within 5 standard deviations), at other places in each sequence (the zeros
    of a wrong mask fall alike in every sequence of the one-hot batch); None otherwise."""
    visible = weights != 0
    zeros = (actual == 0) & visible
    count = int(visible.sum())
    if count == 0 or not bool(zeros.any()) or torch.equal(zeros, zeros[:1].expand_as(zeros)):
        return None
    fraction = int(zeros.sum()) / count
    if abs(fraction - p) > 5 * math.sqrt(p * (1 - p) / count):
        return None
    return finding("evidence.zeros_in_eval", fraction=f"{fraction:.0%}", p=p)


@dataclass
class WeightsRevealing:
    """A student's attention module built to reveal its weights, with the reference's weights."""

    module: RemoteObject
    x: torch.Tensor  # (BATCH, T, T): one-hot tokens
    weights: torch.Tensor  # (BATCH, T, heads, T): the reference's attention weights
    what: str
    p: float
    wrong_outputs: Callable[[], dict[str, list[torch.Tensor]]]  # the reference's wrong outputs on x
    # The reference's outputs on x with two mistakes made together, by the pair (in the order to fix them).
    wrong_pairs: Callable[[], dict[tuple[str, str], list[torch.Tensor]]] = dict

    def _revealed(self, y, what: What) -> tuple[torch.Tensor, torch.Tensor]:
        """The attention weights and their sums read from the module's output, (b, T, h, T) and (b, T, h)."""
        batch, num_tokens, heads, _ = self.weights.shape
        expect_structure(y, torch.empty(batch, num_tokens, heads * (num_tokens + 1), dtype=self.weights.dtype,
                                        device=self.weights.device), what)
        blocks = y.reshape(batch, num_tokens, heads, num_tokens + 1)
        return blocks[..., :-1], blocks[..., -1]

    def _revealed_mistakes(self, wrong: dict | None = None) -> dict:
        """The weights each wrong output reveals (``wrong``: outputs by mistake or by pair of
        mistakes; the single mistakes' by default)."""
        shape = (*self.weights.shape[:3], self.weights.shape[-1] + 1)
        return {mistake: [output.reshape(shape)[..., :-1] for output in outputs if output.numel() == math.prod(shape)]
                for mistake, outputs in (self.wrong_outputs() if wrong is None else wrong).items()}

    def expect_eval_weights(self, *, dropout_faults: bool = False) -> None:
        """After .eval(), the weights are the reference's: no dropout, and a right forward pass.
        ``dropout_faults``: wrong weights do not hide a fault of the dropout, which shows without
        them (``dropout_fault``): it is a fault of its own."""
        try:
            self._expect_eval_weights()
        except Failure as failure:
            fault = self.dropout_fault() if dropout_faults else None
            if fault is None:
                raise
            raise Failure(failure.finding.with_faults(fault)) from None

    def dropout_fault(self) -> Finding | None:
        """A fault of the dropout read from the module's own output, whatever its weights: in the
        rows whose eval-mode output reads as weights (finite, each summing to its total column;
        a row of NaN that hides every key is the weights' fault, and says nothing of dropout),
        training that changes nothing (no dropout at all, ``dropout_missing``) or that does not
        keep each row's sum (dropout after the weights, ``dropout_on_output``), or that changes
        the weights without zeroing any (dropout on the scores, ``dropout_before_softmax``). As in
        ``expect_dropped_weights``, one extra dropout layer may act after the weights. Before
        these, what the module is made of: dropout layers that all ignore the ``dropout`` it was
        built with (``dropout_argument_ignored``), which no weights can hide."""
        if ignoring := self._layers_ignoring_p():
            layer, p = next(iter(ignoring.items()))
            return finding("built_differently", "dropout_argument_ignored", what=self.what,
                           class_name=f"nn.Dropout (self.{layer})", parameter="p", actual=f"{p:g}",
                           expected=f"{self.p:g}")
        what = finding("what.training", what=self.what)
        try:
            self.module.eval()
            in_eval, eval_totals = self._revealed(self.module(self.x), what)
            rows = _readable_rows(in_eval, eval_totals)
            if not bool(self._visible(in_eval != 0, rows).any()):
                return None  # no row reads as weights, or no weight to drop: nothing to read dropout from
            dropped, totals = self._training_weights(what)
            if torch.equal(dropped[rows], in_eval[rows]) and torch.equal(totals[rows], eval_totals[rows]):
                # The same output in both modes: no dropout, unless it acts in eval mode too (rows that
                # no longer sum to 1 for zeros at about p of the places the reference weighs; the worker
                # draws the same numbers in each call). Rows short of 1 for another reason (the future
                # zeroed after the softmax) still show a dropout that never acts.
                acts_in_eval = not _sums_to_one(in_eval[rows]) and _dropped_in_eval(in_eval, self.weights, self.p)
                return None if acts_in_eval else self._nothing_dropped(what)
            if self._dropped_before_softmax(in_eval, dropped, totals, rows):
                self._expect_sequences_apart()
                return finding("zero_fraction", "dropout_before_softmax", what=finding("what.its_weights", what=what),
                               fraction=f"{0:.1%}", p=self.p, expected_fraction=f"{self.p:.0%}")
            if not bool(torch.isfinite(dropped[rows]).all()) or _sums_kept(dropped[rows], totals[rows]):
                return None
            for layer in self._dropout_layers():
                dropped, totals = self._training_weights(what, switched_off=layer)
                zeroed = (dropped == 0) & (in_eval != 0)  # weights that training dropped, not the mask's zeros
                if _sums_kept(dropped[rows], totals[rows]) and bool(self._visible(zeroed, rows).any()):
                    return None  # another dropout drops the weights: this layer is an extra one, no fault
        except Failure:
            return None  # an output that cannot be read as weights: the other tests say why
        return finding("dropout_on_output", "dropout_on_output", what=what)

    def _dropped_before_softmax(self, in_eval: torch.Tensor, dropped: torch.Tensor, totals: torch.Tensor,
                                rows: torch.Tensor) -> bool:
        """Whether training changed the weights without zeroing any: dropout acted on the scores.
        Read from the rows that read as weights in eval mode and stay finite in training (a dropped
        -inf score is NaN, which also tells nothing of the rows it fills); their weights still sum
        to their total column, none of those eval mode shows is 0, and some differ."""
        finite = rows & torch.isfinite(dropped).all(dim=-1) & torch.isfinite(totals)
        if not bool(finite.any()) or not _sums_kept(dropped[finite], totals[finite]):
            return False
        zeroed = (dropped == 0) & (in_eval != 0)
        rtol, atol = TOLERANCES[torch.float64]
        return not bool(self._visible(zeroed, finite).any()) and not torch.allclose(
            dropped[finite], in_eval[finite], rtol=rtol, atol=atol)

    def leak_cause(self) -> str | None:
        """What the module's own eval-mode weights say of a leak of the future found elsewhere:
        weights that weigh no later token and sum to 1 in each row leak nothing themselves, so the
        tokens are mixed outside them (keys reshaped where they should be transposed, heads split
        without the swap: ``tokens_mixed_outside_weights``); summing to 1 in each column instead,
        the softmax ran along the queries (``softmax_wrong_dim``); every later token of a row given one and
        the same weight is a mask filled with a number, not -inf (``mask_filled_with_zero``). None
        when the output does not read as weights, or they weigh later tokens otherwise."""
        try:
            self.module.eval()
            weights, _ = self._revealed(self.module(self.x), finding("what.eval", what=self.what))
        except (Failure, StudentError):
            return None
        return weights_reading(weights.movedim(-2, 1))

    def _nothing_dropped(self, what: What) -> Finding:
        """Training mode left every weight as it was: no dropout acted (its layers made with another
        p than the argument, say so)."""
        none_zeroed = Failure(finding("zero_fraction", "dropout_missing", what=finding("what.its_weights", what=what),
                                      fraction=f"{0:.1%}", p=self.p, expected_fraction=f"{self.p:.0%}"))
        return self._with_layers_ignoring_p(none_zeroed).finding

    def _expect_eval_weights(self) -> None:
        what = finding("what.eval", what=self.what)
        self.module.eval()
        actual, _ = self._revealed(self.module(self.x), what)
        kept = actual != 0

        def dropped(weights: torch.Tensor) -> list[torch.Tensor]:
            return [weights * kept / (1 - self.p), weights * kept] if kept.any() else []

        def mistakes():
            return {**self._revealed_mistakes(), "dropout_in_eval": dropped(self.weights)}

        def together():
            # Dropout left on in eval mode is a fault of its own beside wrong weights (an inverted mask).
            in_eval = {(mistake, "dropout_in_eval"): [kept_weights for weights in outputs
                                                     for kept_weights in dropped(weights)]
                       for mistake, outputs in self._revealed_mistakes().items()}
            return {**self._revealed_mistakes(self.wrong_pairs()), **in_eval}

        # One-hot tokens show the weights themselves: read them as weights (each query's sum to 1),
        # in the student's own layout, so that a dim or an index quoted is the one in their code.
        # Weights a dropout zeroed in eval mode sum to less than 1 whatever else is wrong: their
        # sums then say nothing of the normalisation, and the dropout is what they show.
        zeroed = _dropped_in_eval(actual, self.weights, self.p)
        explain = ([diagnosis.distribution(-1, wrong_dim="softmax_wrong_dim", transposed="weights_transposed")]
                   if zeroed is None else [lambda _actual, _expected: diagnosis.Explanation(zeroed, "dropout_in_eval")])
        expect_tensor(_student_layout(actual), _student_layout(self.weights), finding("what.its_weights", what=what),
                      mistakes=lambda: _in_student_layout(mistakes()), explain=explain,
                      together=lambda: _in_student_layout(together()))

    def expect_dropped_weights(self) -> None:
        """In training mode, about a fraction p of the visible weights is zeroed, the survivors are
        scaled by 1 / (1 - p), and the values are mixed with those dropped-out weights; with one
        extra dropout layer switched off, if the output shows dropout after the weights."""
        what = finding("what.training", what=self.what)
        dropped, totals = self._training_weights(what)
        try:
            self._expect_dropped(dropped, totals, what)
        except Failure:
            if _sums_kept(dropped, totals):
                raise  # every dropout acted on the weights themselves (twice, say): none is extra
            for layer in self._dropout_layers():
                try:
                    self._expect_dropped(*self._training_weights(what, switched_off=layer), what)
                    return
                except Failure:
                    continue
            raise

    def _dropout_layers(self) -> list[str]:
        """The names of the module's own nn.Dropout layers (the weights may be dropped by another
        one, or by F.scaled_dot_product_attention's dropout_p)."""
        return [name for name, kind in self.module.describe()["children"].items() if kind == "Dropout"]

    def _with_layers_ignoring_p(self, failure: Failure) -> Failure:
        """A wrong fraction of zeros from a module whose nn.Dropout layers all drop with another
        probability than the ``dropout`` it was built with: the layers ignore the argument, which
        says more than the fraction does (p = 0.5 is nn.Dropout's own default)."""
        layers = self._layers_ignoring_p()
        if not layers:
            return failure
        quoted = ", ".join(f"self.{layer}.p = {p:g}" for layer, p in layers.items())
        return Failure(failure.finding.with_mistake("dropout_argument_ignored").with_notes(
            finding("evidence.dropout_layers_p", layers=quoted, p=self.p)))

    def _layers_ignoring_p(self) -> dict[str, float]:
        """The module's nn.Dropout layers by name with their p, when there are some and every one
        drops with another probability than the ``dropout`` the module was built with; else none."""
        layers = {layer: self.module.attr(layer).attr("p") for layer in self._dropout_layers()}
        if any(not isinstance(p, float | int) or math.isclose(p, self.p) for p in layers.values()):
            return {}
        return layers

    def _training_weights(self, what: What, switched_off: str | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """The weights and their sums read from one training-mode output (``switched_off``: a
        dropout layer of the module put in eval mode first)."""
        self.module.train()
        if switched_off is not None:
            self.module.attr(switched_off).eval()
        return self._revealed(self.module(self.x), what)

    def _expect_sequences_apart(self) -> None:
        """Each sequence attended to on its own, in eval mode (training mode restored after)."""
        self.module.eval()
        try:
            expect_sequences_apart(self.module, self.x, self.module(self.x), 97, self.what)
        finally:
            self.module.train()

    def _visible(self, revealed: torch.Tensor, rows: torch.Tensor | None = None) -> torch.Tensor:
        """The entries of revealed weights (b, T, h, T) that the causal mask leaves visible, on the
        CPU (``rows``: of those rows (b, T, h) only): a zero elsewhere is the mask's, not dropout's."""
        num_tokens = self.weights.shape[1]
        visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool).tril()[:, None, :].expand_as(revealed.cpu())
        if rows is not None:
            visible = visible & rows.cpu()[..., None]
        return revealed.cpu()[visible]

    def _expect_dropped(self, dropped: torch.Tensor, totals: torch.Tensor, what: What) -> None:
        kept = dropped != 0
        num_tokens = self.weights.shape[1]
        visible = torch.ones(num_tokens, num_tokens, dtype=torch.bool).tril()[:, None, :].expand_as(kept.cpu())
        rtol, atol = TOLERANCES[torch.float64]
        its_weights = finding("what.its_weights", what=what)
        if bool(kept.cpu()[visible].all()) and not torch.allclose(dropped, self.weights, rtol=rtol, atol=atol):
            # No weight is 0, yet training changed them: dropout acted on the scores, before the
            # softmax; unless the sequences mix (this x repeats one sequence, so a module that
            # attends across them reads right in eval mode and sums dropped copies in training).
            self._expect_sequences_apart()
            raise Failure(finding("zero_fraction", "dropout_before_softmax", what=its_weights, fraction=f"{0:.1%}",
                                  p=self.p, expected_fraction=f"{self.p:.0%}"))
        expect(not _renormalised(dropped, self.weights, self.p),
               finding("dropout_renormalised", "dropout_renormalised", what=its_weights))
        try:
            expect_zero_fraction(kept.cpu()[visible], self.p, its_weights)
        except Failure as failure:
            raise self._with_layers_ignoring_p(failure) from None
        expect(_sums_kept(dropped, totals), finding("dropout_on_output", "dropout_on_output", what=what))
        expect_tensor(dropped, self.weights * kept / (1 - self.p), finding("what.weights_kept", what=what),
                      mistakes=lambda: wrong_outputs.dropout_mistakes(self.weights, kept, self.p))


def _student_layout(revealed: torch.Tensor) -> torch.Tensor:
    """Revealed weights (b, T, h, T) as the student's module holds them: (b, h, T, T), or (b, T, T)
    for a module of one head."""
    weights = revealed.movedim(2, 1)
    return weights.squeeze(1) if weights.shape[1] == 1 else weights


def _in_student_layout(outputs: dict) -> dict:
    """Each wrong output of revealed weights, by mistake (or pair of mistakes), in the student's layout."""
    return {mistake: [_student_layout(output) for output in wrong] for mistake, wrong in outputs.items()}


def weights_reading(weights: torch.Tensor) -> str | None:
    """The cause of a leak that attention weights (..., T, T), finite, show (``leak_cause``)."""
    if not bool(torch.isfinite(weights).all()):
        return None
    tokens = weights.shape[-1]
    positions = torch.arange(tokens, device=weights.device)
    future = positions[None, :] > positions[:, None]  # key after query
    later = weights[..., future]
    if not bool(later.any()):  # the future hidden: the leak is in what they weigh, or how they sum
        rows, columns = weights.sum(dim=-1), weights.sum(dim=-2)
        if torch.allclose(rows, torch.ones_like(rows), atol=1e-6):
            return "tokens_mixed_outside_weights"
        return "softmax_wrong_dim" if torch.allclose(columns, torch.ones_like(columns), atol=1e-6) else None
    alike = [weights[..., query, future[query]] for query in range(tokens - 2)]  # rows with 2 later tokens or more
    if alike and all(bool((row > 0).all()) and torch.allclose(row, row[..., :1].expand_as(row), rtol=1e-6, atol=1e-12)
                     for row in alike):
        return "mask_filled_with_zero"
    return None


def _renormalised(dropped: torch.Tensor, weights: torch.Tensor, p: float) -> bool:
    """Whether the dropped-out weights were divided by their row sums again (rows summing to 1,
    and 0 / 0 = NaN where a row lost every weight) instead of scaled by 1 / (1 - p): each row that
    kept a weight is the kept weights over their sum, and some such row differs from the
    inverted dropout of the same weights."""
    finite = torch.isfinite(dropped).all(dim=-1)
    if not bool(finite.any()) or not bool(((dropped == 0) & (weights != 0)).any()):
        return False  # nothing finite to read, or nothing dropped: no dropout to renormalise after
    kept = (dropped != 0) & finite[..., None]
    survivors = weights * kept
    renormalised = survivors / survivors.sum(dim=-1, keepdim=True)
    rtol, atol = TOLERANCES[torch.float64]
    rows = finite & (survivors.sum(dim=-1) > 0)
    return bool(rows.any()) and torch.allclose(dropped[rows], renormalised[rows], rtol=rtol, atol=atol) and not (
        torch.allclose(dropped[rows], survivors[rows] / (1 - p), rtol=rtol, atol=atol))


def _readable_rows(weights: torch.Tensor, totals: torch.Tensor) -> torch.Tensor:
    """The rows of revealed weights (b, T, h) that read as weights: finite, each summing to its
    total column."""
    rtol, atol = TOLERANCES[torch.float64]
    finite = torch.isfinite(weights).all(dim=-1) & torch.isfinite(totals)
    return finite & torch.isclose(totals, weights.sum(dim=-1), rtol=rtol, atol=atol)


def _sums_to_one(weights: torch.Tensor) -> bool:
    """Whether each row of weights sums to 1: no dropout acted on them."""
    rtol, atol = TOLERANCES[torch.float64]
    return torch.allclose(weights.sum(dim=-1), torch.ones((), dtype=weights.dtype, device=weights.device),
                          rtol=rtol, atol=atol)


def _sums_kept(weights: torch.Tensor, totals: torch.Tensor) -> bool:
    """Whether each revealed row still sums to its total column: dropout, if any, acted on the
    weights and nothing after them."""
    rtol, atol = TOLERANCES[torch.float64]
    return torch.allclose(totals, weights.sum(dim=-1), rtol=rtol, atol=atol)


def weights_revealing_attention(student: Submission, reference_class: type, class_name: str, *, p: float,
                                device: str, num_heads: int | None = None, split_merge=None) -> WeightsRevealing:
    """The student's ``class_name`` (CausalAttention, or MultiHeadAttention with ``num_heads``)
    and the reference's, built to reveal their weights (see the module's docstring).
    ``split_merge`` is the reference's (split_heads, merge_heads) for multi-head attention."""
    heads = num_heads or 1
    d_out = heads * (NUM_TOKENS + 1)
    # context_length is T: a mask not cut to T is the forward tests' fault to charge, not dropout's.
    args = (NUM_TOKENS, d_out, NUM_TOKENS, p) + ((num_heads,) if num_heads else ())
    ref = reference_module(reference_class, *args, seed=96, device=device, dtype=torch.float64)
    head_values = torch.cat([torch.eye(NUM_TOKENS), torch.ones(1, NUM_TOKENS)])  # (T + 1, T)
    with torch.no_grad():
        ref.W_value.weight.copy_(head_values.repeat(heads, 1))
        if num_heads:
            ref.out_proj.weight.copy_(torch.eye(d_out))
            ref.out_proj.bias.zero_()
    # Dropout is its own behaviour: query, key and value biases the reference lacks do not hide it.
    module = student_module(student, ref, class_name, *args, device=device, dtype=torch.float64,
                            parameters_placed=True)
    x = torch.eye(NUM_TOKENS, dtype=torch.float64, device=device).expand(BATCH, -1, -1)
    with torch.no_grad():
        weights = ref(x).reshape(BATCH, NUM_TOKENS, heads, NUM_TOKENS + 1)[..., :-1]
    multi_head = (num_heads, *split_merge) if num_heads else None
    return WeightsRevealing(module, x, weights, call_text(class_name, *args), p,
                            lambda: wrong_outputs.attention_mistakes(ref, x, causal=True, heads=multi_head),
                            lambda: wrong_outputs.attention_faults(ref, x, causal=True, heads=multi_head))
