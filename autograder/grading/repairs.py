"""A crash that one named slip explains: the student's line repaired as the mistake's fix says.

A test that stops at an exception of the student's code shows nothing of the rest of the stage:
without more, the crash costs every test it stops, a whole big stage for one character
(``keys.transpose(1, 2)`` carried over from 3-D ``CausalAttention`` to 4-D heads). When the
exception names a mistake whose fix is one mechanical change of the line that raised, the grading
plugin runs the test again with that line changed (``Submission.redefined``: only the stage's own
definition, in the sandbox, as any of the student's code runs); where a slip then raises on
another line of that definition, or on the same line once repaired (``x @ layer.weight`` on each
projection's line; a maximum that lost both its keepdim and its ``.values``), that line is changed
too, up to ``MOST_REPAIRED_LINES`` changes, each slip a fault of its own. If the test then passes, the slip
is all the test found: the failure is pinned to the mistake's behaviour, as one reproduced from
the answer's output is (``partial_credit``). If it does not, nothing changes.

The repaired code is never shown: the mistake's own text says what to fix, in words.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from autograder.reading.notebook import CodeBlock

# The most changes made to one definition's lines before a test is given up: two slips on each of
# three lines (a copy into each of v1's matrices without no_grad and without the transpose, say).
MOST_REPAIRED_LINES = 6
# The last frame of the student's traceback: where the exception was raised.
_FRAME = re.compile(r'File "<cell (\d+)>", line (\d+)')
_OPERAND = r"[\w.]+(?:\(\))?"
# A factor of a product: a name, a call with its arguments (``torch.softmax(scores, dim=-1)``) or a
# bracketed expression, none nested; not one already cast (``weights.to(x)``).
_FACTOR = rf"(?:{_OPERAND}(?![\w.(])|[\w.]+(?<!\.to)\([^()]*\)|(?<![\w.)\]])\([^()]*\))"


def _bool_mask(line: str) -> str:
    """masked_fill given a float mask (the book's own buffer): its first argument made bool."""
    start = re.search(r"masked_fill_?\(", line)
    if start is None:
        return line
    depth = 0
    for index in range(start.end(), len(line)):
        depth += line[index] in "([{"
        depth -= line[index] in ")]}"
        if depth < 0:
            return line
        if line[index] == "," and depth == 0:
            mask = line[start.end():index].strip()
            return f"{line[:start.end()]}({mask}).bool(){line[index:]}"
    return line


def _mask_sliced(line: str) -> str:
    """masked_fill given the whole (context_length, context_length) buffer, or a name it was given
    to on a line before (``mask_bool = self.mask.bool()``): the mask cut to the last two sizes of
    what it fills, whether that is a name (``scores.masked_fill_(self.mask, ...)``) or a bracketed
    expression (``(q @ k.transpose(1, 2)).masked_fill(self.mask.bool(), ...)``). A buffer cut to its
    own size (``self.mask[:n, :n]``, n read off the mask) is cut to those sizes instead."""
    fill = re.search(r"\.(masked_fill_?)\(\s*([A-Za-z_][\w.]*)(?:\[[^\[\]]*\])?((?:\.bool\(\))?(?:\s*==\s*[01])?\s*,)",
                     line)
    if fill is None:
        return line
    before = line[:fill.start()]
    if before.endswith(")"):
        depth, start = 0, None
        for index in range(len(before) - 1, -1, -1):
            depth += before[index] in ")]}"
            depth -= before[index] in "([{"
            if depth == 0:
                start = index
                break
        if start is None:
            return line
        name = re.search(r"[\w.]*$", before[:start])
        start -= len(name.group()) if name else 0
    else:
        name = re.search(r"\b[\w.]+$", before)
        if name is None:
            return line
        start = name.start()
    filled = before[start:]
    mask = f"{fill.group(2)}[..., :({filled}).shape[-2], :({filled}).shape[-1]]"
    return f"{before}.{fill.group(1)}({mask}{fill.group(3)}{line[fill.end():]}"


def _calls(line: str, names: str) -> list[tuple[int, int]]:
    """The spans of the argument lists (after the opening bracket, to the closing one) of the calls
    of ``names`` (a regex alternation) on the line that pass arguments; none where a bracket is not closed."""
    spans = []
    for start in re.finditer(rf"(?:\.|\btorch\.)(?:{names})\(", line):
        depth = 0
        for index in range(start.end(), len(line)):
            depth += line[index] in "([{"
            depth -= line[index] in ")]}"
            if depth < 0:
                if line[start.end():index].strip():
                    spans.append((start.end(), index))
                break
    return spans


def _kept_dims(line: str) -> str:
    """Reductions along a dim that lost it: keepdim=True added to each one with arguments and none."""
    for begin, end in reversed(_calls(line, "sum|max|amax|min|amin|logsumexp|mean")):
        if "keepdim" not in line[begin:end]:
            line = f"{line[:end]}, keepdim=True{line[end:]}"
    return line


def _max_values(line: str) -> str:
    """A maximum along a dim used as a tensor: its values taken (``.values``) where nothing is."""
    for _, end in reversed(_calls(line, "max|min")):
        if not re.match(r"\s*[.\[]", line[end + 1:]):  # .values, .indices, [0] or any use of the pair
            line = f"{line[:end + 1]}.values{line[end + 1:]}"
    return line


# A call of a plain name (not a builtin, not a method) passing only plain names by position.
_PLAIN_CALL = re.compile(r"(?<![\w.])(?P<callee>[A-Za-z_]\w*)\("
                         r"(?P<arguments>\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+\s*)\)")


def _by_keyword(line: str) -> str:
    """Arguments passed by position in another order than the callee takes them: each plain name
    passed by keyword as itself (``CausalAttention(d_in=d_in, ..., dropout=dropout)``), so that
    it reaches the parameter of its name wherever it stands (a callee with other names refuses it,
    and the rerun proves nothing)."""
    def by_keyword(call: re.Match[str]) -> str:
        if call["callee"] in dir(builtins):
            return call.group()
        names = [name.strip() for name in call["arguments"].split(",")]
        return f"{call['callee']}({', '.join(f'{name}={name}' for name in names)})"
    return _PLAIN_CALL.sub(by_keyword, line)


def _whole_sizes(line: str) -> str:
    """view or reshape given a float size: each size it is given by position made an int (a tuple of
    sizes is left as it is, and the rerun then proves nothing)."""
    for begin, end in reversed(_calls(line, "view|reshape")):
        line = f"{line[:begin]}*map(int, ({line[begin:end]},)){line[end:]}"
    return line


def _numbers_as_tensors(line: str) -> str:
    """A torch function given a Python number (``torch.sqrt(d_k)``): its arguments made a tensor."""
    for begin, end in reversed(_calls(line, "sqrt|rsqrt|exp|log|pow|square")):
        if re.search(r"\btorch\.\w+\($", line[:begin]):  # torch's function, not a method of a tensor
            line = f"{line[:begin]}__import__('torch').as_tensor({line[begin:end]}){line[end:]}"
    return line


def _substituted(*rewrites: tuple[re.Pattern[str], str]) -> Callable[[str], str]:
    """A line's code rewritten by each (pattern, replacement) in turn; its comment is left as it is."""
    def rewrite(line: str) -> str:
        code, comment = _code_and_comment(line)
        for pattern, replacement in rewrites:
            code = pattern.sub(replacement, code)
        return code + comment
    return rewrite


def _code_and_comment(line: str) -> tuple[str, str]:
    """A line cut where its comment starts: at the first ``#`` outside a string ("" when none)."""
    quote = None
    for index, char in enumerate(line):
        if quote is None and char == "#":
            return line[:index], line[index:]
        if char in "'\"" and (quote is None or quote == char):
            quote = char if quote is None else None
    return line, ""


_GUARD = re.compile(r"^(?P<lead>\s*(?:el)?if\s+)(?P<condition>.+?)(?P<rest>:\s*(?:raise\b.*)?(?:#.*)?)$")


def _condition_negated(line: str) -> str:
    """``if <test>:`` (or ``if <test>: raise ...`` on one line) with its test negated: a raise
    guarded the wrong way round."""
    guard = _GUARD.match(line)
    if guard is None:
        return line
    return f"{guard['lead']}not ({guard['condition'].strip()}){guard['rest']}"


# The number of tokens read from the first dim: the dim before the last, counted from the end,
# which is the tokens' in x (b, T, d) and in scores (..., T, T) alike.
_TOKENS_FROM_THE_END = _substituted((re.compile(r"\.shape\[\s*0\s*\]"), ".shape[-2]"),
                                    (re.compile(r"\.size\(\s*0\s*\)"), ".size(-2)"))

# Each mistake's fix, as a rewrite of the line that raised; the rule that named the mistake read
# that line too.
REWRITES: dict[str, Callable[[str], str]] = {
    # keys.transpose(1, 2) on 4-D heads: the last two dims, counted from the end.
    "transpose_fixed_dims": _substituted(
        (re.compile(rf"(@\s*{_OPERAND})\.(?:transpose|swapaxes)\(\s*\d\s*,\s*\d\s*\)"), r"\1.transpose(-2, -1)"),
        (re.compile(rf"(matmul\(\s*{_OPERAND}\s*,\s*{_OPERAND})\.(?:transpose|swapaxes)\(\s*\d\s*,\s*\d\s*\)"),
         r"\1.transpose(-2, -1)"),
    ),
    # keys.T on a batch: only the last two dims.
    "keys_T_on_batch": _substituted((re.compile(r"(\w[\w.]*(?:\(\))?)\.T\b(?!\s*\()"), r"\1.transpose(-2, -1)")),
    "mask_needs_bool": _bool_mask,  # masked_fill given a float mask
    # view of a transposed tensor: made contiguous first.
    "view_needs_contiguous": _substituted((re.compile(r"(?<!contiguous\(\))\.view\("), ".contiguous().view(")),
    # exp(x) / exp(x).sum(dim=dim): each reduction keeps its dim, so that it lines up with x.
    "softmax_missing_keepdim": _kept_dims,
    # x - x.max(dim=dim, keepdim=True): the maximum's values, not the (values, indices) pair.
    "max_returns_tuple": _max_values,
    # inputs @ attn_weights: the two factors of the product in the other order.
    "operands_swapped": _substituted((re.compile(rf"^(?P<lead>.*?\b)(?P<a>{_OPERAND})\s*@\s*(?P<b>{_OPERAND})"
                                                 rf"(?P<rest>\s*(?:$|[),#]))"), r"\g<lead>\g<b> @ \g<a>\g<rest>")),
    # x @ layer.weight: the weight the right way round. Not the layer called on x, which adds its
    # bias, where the code may add it by hand on the next line (blind28/037: a bias added twice, then
    # told as a further fault of the student's); a bias left out is then a fault of its own.
    "linear_weight_untransposed": _substituted(
        (re.compile(rf"(?P<x>{_OPERAND})\s*@\s*(?P<layer>[\w.]+)\.weight\b(?!\s*\.|\s*\[)"),
         r"\g<x> @ \g<layer>.weight.T")),
    # CausalAttention(d_in, d_out, dropout, context_length): each argument passed by its own name.
    "arguments_out_of_order": _by_keyword,
    # scores.masked_fill_(self.mask.bool(), ...): the buffer cut to the last two sizes of what it fills.
    "mask_not_sliced": _mask_sliced,
    # self.mask[:T]: the columns cut to the sequence too (blind28/087 cost half its stage, unrepaired).
    "mask_rows_only_sliced": _substituted(
        (re.compile(r"(?P<mask>(?:mask|tril|bias)\w*(?:\.\w+\([^()]*\))*)\s*\[\s*:\s*(?P<n>[\w.]+(?:\[[^\[\]]*\])?)\s*\]"),
         r"\g<mask>[:\g<n>, :\g<n>]")),
    # x.view(b, T, h, d_out / h): each size made a whole number, wherever the / was.
    "size_is_float": _whole_sizes,
    # sa_v1.W_query.copy_(...) with autograd recording: the parameter's storage written, as under no_grad.
    "copy_needs_no_grad": _substituted((re.compile(r"(?<!\.data)\.copy_\("), ".data.copy_(")),
    # sa_v1.W_query = tensor: the tensor wrapped in a parameter, as a module's parameter must be.
    "copy_replaced_parameter": _substituted(
        (re.compile(r"^(?P<lead>\s*)(?P<target>[\w.]+)\s*=(?!=)\s*(?P<value>.+?)\s*$"),
         r"\g<lead>\g<target> = __import__('torch').nn.Parameter(\g<value>)")),
    # torch.sqrt(d_k) on an int: the number made a tensor first.
    "tensor_function_on_number": _numbers_as_tensors,
    # with torch.no_grad: the context manager made by calling it.
    "no_grad_not_called": _substituted((re.compile(r"\b(no_grad|enable_grad|inference_mode)\s*:"), r"\1():")),
    # T = x.shape[0] for the mask's cut: the tokens' dim of x (b, T, d), counted from the end.
    "mask_wrong_size": _TOKENS_FROM_THE_END,
    # T = scores.shape[0] in a function of (..., T, T) scores: right for one matrix, the batch's
    # size for a batch; the same dim counted from the end.
    "batch_dims_not_handled": _TOKENS_FROM_THE_END,
    # T = x.shape[0] for a running mean's (T, T) weights: the batch's size; the tokens' dim, from the end.
    "average_weights_shape": _TOKENS_FROM_THE_END,
    # weights @ x with weights made in float32 for float64 x: the first factor in the second's dtype.
    "dtype_not_followed": _substituted(
        (re.compile(rf"(?P<a>{_FACTOR})\s*@\s*(?P<b>{_OPERAND})"), r"\g<a>.to(\g<b>) @ \g<b>")),
    # if d_out % num_heads == 0: raise ValueError(...): the test that guards the raise, negated.
    "divisible_sizes_rejected": _condition_negated,
    # sa_v1.W_query.copy_(sa_v2.W_query.weight): the weight in v1's layout, transposed.
    "copy_without_transpose": _substituted((re.compile(r"\.weight\b(?!\s*\.(?:T\b|t\(|mT\b|transpose|permute))"),
                                            ".weight.T")),
}


@dataclass(frozen=True)
class RepairedLine:
    """The line that raised, in the student's block defining the stage, as its fix makes it."""

    cell: int  # as tracebacks number it (the notebook's index + 1)
    line: int  # in the cell
    text: str


def repaired_line(mistake: str | None, stage: str, student_traceback: str, blocks: Sequence[CodeBlock],
                  repaired: Mapping[int, str] | None = None) -> RepairedLine | None:
    """The stage's line that raised (the last frame of ``student_traceback`` in the block defining
    ``stage``: a call there may raise in code it calls) rewritten as ``mistake``'s fix says, from
    its text in ``repaired`` (the lines of that cell repaired already, by number) where it is
    there (a loop's count: the loop's own line, above it); None when the mistake has no mechanical
    fix, no frame lies in that block, or the rewrite does not apply to the line."""
    rewrite = REWRITES.get(mistake or "")
    counted = mistake in COUNTED_BY_AN_ENCLOSING_LOOP
    defining = [block for block in blocks if stage in block.names]
    if (rewrite is None and not counted) or not defining:
        return None
    block = defining[-1]  # the last definition is the one that runs
    lines = block.source.splitlines()
    for cell, line in ((int(cell), int(line)) for cell, line in reversed(_FRAME.findall(student_traceback))):
        index = line - block.line
        if block.cell_index + 1 == cell and 0 <= index < len(lines):
            def text_of(number: int) -> str:
                return (repaired or {}).get(number, lines[number - block.line])
            if rewrite is None:  # a count: the loop's line, above this one
                return _loop_counted_by_use(text_of, range(block.line, line), cell, text_of(line))
            rewritten = rewrite(text_of(line))
            if rewritten != text_of(line):
                return RepairedLine(cell, line, rewritten)
            if mistake in FED_BY_AN_EARLIER_LINE:
                return _operand_line(rewrite, text_of, range(block.line, line), cell, _names(text_of(line)))
            if mistake in GUARDED_BY_AN_IF:
                return _guarding_line(rewrite, text_of, range(block.line, line), cell, _indent(text_of(line)))
            return None
    return None


# Slips made where an operand is computed, on its own line before the one that raises (``m =
# x.max(dim=dim).values``, then ``x - m``; ``T = x.shape[0]``, then the mask cut to T): that line
# is the one to repair.
FED_BY_AN_EARLIER_LINE = frozenset({"softmax_missing_keepdim", "max_returns_tuple", "mask_wrong_size",
                                    "batch_dims_not_handled", "average_weights_shape"})


# Slips in the test that guards a raise, on the ``if`` line above the one that raised.
GUARDED_BY_AN_IF = frozenset({"divisible_sizes_rejected"})

# Slips in the count of a loop that encloses the line that raised: ``for t in range(8)``, the demo's
# length, indexing past the end of a shorter input.
COUNTED_BY_AN_ENCLOSING_LOOP = frozenset({"hard_coded_size"})
_RANGE_OF_A_COUNT = re.compile(r"^(?P<lead>\s*for\s+(?P<var>[A-Za-z_]\w*)\s+in\s+range\()(?P<count>\s*[\w.]+\s*)"
                               r"(?P<rest>\)\s*:.*)$")


def _loop_counted_by_use(text_of: Callable[[int], str], earlier: range, cell: int, raised: str) -> RepairedLine | None:
    """The nearest ``for <var> in range(<count>):`` enclosing the line that raised, its count read
    from the tensor that line indexes with ``<var>`` (``out[b, t]`` -> ``range(out.shape[1])``), as
    the fix says: take every size from the tensor's own shape. None where no such loop or use is."""
    indent = _indent(raised)
    for number in reversed(earlier):
        text = text_of(number)
        if not text.strip() or _indent(text) >= indent:
            continue
        indent = _indent(text)
        loop = _RANGE_OF_A_COUNT.match(text)
        if loop is None:
            continue
        position = _indexed_by(raised, loop["var"])
        if position is None:
            return None
        tensor, dim = position
        return RepairedLine(cell, number, f"{loop['lead']}{tensor}.shape[{dim}]{loop['rest']}")
    return None


_SUBSCRIPT = re.compile(r"(?P<tensor>[A-Za-z_][\w.]*)\[(?P<indices>[^\[\]]+)\]")


def _indexed_by(line: str, var: str) -> tuple[str, int] | None:
    """The first tensor of ``line`` indexed with ``var`` alone at one position, and that position."""
    for subscript in _SUBSCRIPT.finditer(line):
        indices = [index.strip() for index in subscript["indices"].split(",")]
        if var in indices and "..." not in indices[:indices.index(var)]:
            return subscript["tensor"], indices.index(var)
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _guarding_line(rewrite: Callable[[str], str], text_of: Callable[[int], str], earlier: range, cell: int,
                   indent: int) -> RepairedLine | None:
    """The nearest line before the one that raised, indented less, rewritten: the ``if`` whose
    block the raise is in; None when that line is no ``if`` the fix changes."""
    for number in reversed(earlier):
        text = text_of(number)
        if text.strip() and _indent(text) < indent:
            rewritten = rewrite(text)
            return RepairedLine(cell, number, rewritten) if rewritten != text else None
    return None


def _names(line: str) -> set[str]:
    return set(re.findall(r"\b[A-Za-z_]\w*\b", line))


def _operand_line(rewrite: Callable[[str], str], text_of: Callable[[int], str], earlier: range, cell: int,
                  used: set[str]) -> RepairedLine | None:
    """The nearest line before the one that raised that assigns a name it uses, directly or
    through the lines that make those names (``T = x.shape[0]``, then ``future = mask[:T, :T]``),
    and that the fix changes, rewritten; None when there is none."""
    used = set(used)
    for number in reversed(earlier):
        text = text_of(number)
        assigned = re.match(r"\s*([A-Za-z_]\w*)\s*=(?!=)", text)
        if assigned and assigned.group(1) in used:
            if rewrite(text) != text:
                return RepairedLine(cell, number, rewrite(text))
            used |= _names(text[assigned.end():])
    return None
