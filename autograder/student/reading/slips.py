"""Slips read from an exception in full: the student's line, torch's words and their own code.

Some exceptions say exactly which slip was made, once read whole:

- a dim out of range whose argument is a size (``dim=self.d_out``): which argument, its value,
  and the dims the tensor has;
- a method whose name is a letter away from ``__init__`` or ``forward`` (``__init_``, ``__int__``,
  ``foward``), which Python never calls: the TypeError or NotImplementedError that follows;
- an attribute a typo away from a name that exists (``self.W_qeury``, ``torch.trill``,
  ``nn.Model``);
- a keyword the called function does not take (``biass=``, ``dims=``), and the one it does;
- sizes given to view or reshape that do not multiply to the tensor's number of elements (a
  head size taken from d_in, say): the sizes, and the elements they make and the tensor has;
- a size in torch's words about shapes that do not fit which the student's code writes as a
  number where it makes a tensor (``torch.ones(8, 8)`` for the demo's T = 8): a hard-coded size;
- arguments passed by position in another order than the called class or function takes them
  (``CausalAttention(d_in, d_out, dropout, context_length)``), read from any of the student's
  lines in the traceback, since the error is often raised deep inside the call.

Each is a ``Slip``: the named mistake (``mistakes`` of this package) and the evidence, as data:
the key of a phrase quoting the names (``evidence.*``, worded by the grader's findings) and its
fields. The student's code is read with ``ast`` (never run); names of torch are looked up in the
modules this process has already imported, never imported on a student's say.

The grader's hidden tests and the public checks (``selfcheck``) both read exceptions with this
module, so the two say the same of the same exception.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .source_code import definitions_holding, parsed

# Methods whose names PyTorch calls by itself: a near miss of one of them is never called.
CALLED_BY_NAME = ("__init__", "forward")
# A name counts as a typo of another from this similarity on (difflib's ratio): `W_qeury` of
# `W_query` (0.86), `__init_` of `__init__` (0.93), `biass` of `bias` (0.89), `Model` of `Module` (0.73).
TYPO_SIMILARITY = 0.7

_DIM_OUT_OF_RANGE = re.compile(r"Dimension out of range \(expected to be in range of \[(-?\d+), (-?\d+)\],"
                               r" but got (-?\d+)\)")
_NO_ATTRIBUTE = re.compile(r"^(?:module )?'([\w.]+)' (?:object )?has no attribute '(\w+)'")
_UNEXPECTED_KEYWORD = re.compile(r"([\w.]+)\(\) got an unexpected keyword argument '(\w+)'")
_MISSING_ARGUMENT = re.compile(r"missing \d+ required positional arguments?: ['\"](\w+)['\"]")
_CONSTRUCTOR_ARGUMENTS = re.compile(r"(\w+)(?:\.__init__)?\(\) (?:takes|got an unexpected keyword argument)")
_MISSING_FORWARD = re.compile(r"Module \[(\w+)\] is missing the required \"forward\" function")
# Calls whose dim is their first positional argument as a method (x.softmax(dim)), their second as a
# function of torch (torch.softmax(x, dim)), or the keyword dim=.
_DIM_CALLS = "softmax|log_softmax|sum|mean|amax|amin|max|min|cumsum|argmax|unsqueeze|squeeze|flatten|norm|std|var|prod"
_DIM_ARGUMENTS = (
    re.compile(r"\bdim\s*=\s*(?P<expression>[^,()=]+?)\s*[,)]"),
    re.compile(rf"\b(?:torch|F|functional)\.(?:{_DIM_CALLS})\(\s*[^,()=]+,\s*(?P<expression>[^,()=]+?)\s*[,)]"),
    re.compile(rf"(?<!torch)(?<!\bF)(?<!functional)\.(?:{_DIM_CALLS})\(\s*(?P<expression>[^,()=]+?)\s*[,)]"),
)
_KEYWORDS_IN_LINE = re.compile(r"\b(\w+)\s*=(?!=)")
_VIEW_SIZES = re.compile(r"shape '\[([-\d, ]+)\]' is invalid for input of size (\d+)")
# A view or reshape of a tensor just transposed (or permuted): the heads merged back.
_MERGE_VIEW = re.compile(r"(\.transpose\([^()]*\)|\.permute\([^()]*\)|\.mT)\s*(\.contiguous\(\))?\s*\.(view|reshape)\(")
# A call with plain arguments, ``Name(a, b, c)``: the candidates for arguments out of order.
_SIMPLE_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(([^()]*)\)")


@dataclass(frozen=True)
class Slip:
    """A slip the exception shows: the mistake to name, and the evidence quoting the names (the
    key of its phrase and the phrase's fields)."""

    mistake: str | None  # None: the evidence is stated, but it points to no one mistake
    evidence: str
    fields: dict[str, object] = field(default_factory=dict)


def _slip(mistake: str | None, evidence: str, **fields) -> Slip:
    return Slip(mistake, evidence, fields)


def slip_in_error(error_type: str, message: str, line: str, sources: Sequence[str],
                  lines: Sequence[str] = ()) -> Slip | None:
    """The slip an exception of the student's code shows, if it shows one: ``line`` is the
    student's line where it was raised, ``lines`` all their lines of the traceback (outermost
    first), ``sources`` the code of the notebook's definitions."""
    trees = parsed(sources)
    for reader in (_dim_is_a_size, _misspelt_method, _attribute_typo, _keyword_typo, _view_sizes,
                   _assigned_none, _hard_coded_size, _hard_coded_loop):
        slip = reader(error_type, message, line, trees)
        if slip is not None:
            return slip
    return _arguments_out_of_order(lines or [line], trees)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate ``name`` is most plausibly a typo (case aside too) or an abbreviation of, if any."""
    candidates = sorted({candidate for candidate in candidates if candidate != name})
    folded = [candidate for candidate in candidates if candidate.lower() == name.lower()]
    if folded:
        return folded[0]
    matches = difflib.get_close_matches(name, candidates, n=1, cutoff=TYPO_SIMILARITY)
    if matches:
        return matches[0]
    # An abbreviation: W_q of W_query, the one candidate it begins (past a common "W_").
    longer = [candidate for candidate in candidates if len(name) >= 3 and candidate.lower().startswith(name.lower())]
    return longer[0] if len(longer) == 1 else None


# -- a size passed as a dim -------------------------------------------------------------------------
def _dim_is_a_size(error_type: str, message: str, line: str, trees) -> Slip | None:
    match = _DIM_OUT_OF_RANGE.search(message)
    if error_type != "IndexError" or match is None:
        return None
    low, high, value = match.groups()
    expressions = {found.group("expression").strip() for pattern in _DIM_ARGUMENTS for found in pattern.finditer(line)}
    named = [expression for expression in expressions if not re.fullmatch(r"-?\d+", expression)]
    if len(named) != 1:
        return None  # a literal dim (a fixed rank) or several candidates: other rules say more
    return _slip("dim_is_a_size", "evidence.dim_is_a_size", argument=named[0], value=int(value), low=int(low),
                 high=int(high))


# -- a method PyTorch never calls -------------------------------------------------------------------
def _misspelt_method(error_type: str, message: str, line: str, trees) -> Slip | None:
    if error_type == "TypeError":
        match = _CONSTRUCTOR_ARGUMENTS.search(message)
    elif error_type == "NotImplementedError":
        match = _MISSING_FORWARD.search(message)
    else:
        return None
    if match is None:
        return None
    for cls in _classes(trees, match.group(1)):
        defined = {node.name for node in cls.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for meant in CALLED_BY_NAME:
            if meant in defined:
                continue
            written = closest(meant, defined)
            if written is not None:
                return _slip("misspelt_method", "evidence.misspelt_method", class_name=cls.name, written=written,
                             meant=meant)
    return None


def _classes(trees: Sequence[ast.Module], name: str) -> list[ast.ClassDef]:
    return [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == name]


# -- an attribute a typo away ------------------------------------------------------------------------
def _attribute_typo(error_type: str, message: str, line: str, trees) -> Slip | None:
    match = _NO_ATTRIBUTE.search(message)
    if error_type != "AttributeError" or match is None:
        return None
    owner, name = match.groups()
    suggestion = closest(name, _attributes_of(owner, trees))
    if suggestion is None:
        return None
    return _slip("attribute_typo", "evidence.did_you_mean", name=name, owner=owner, suggestion=suggestion)


def _attributes_of(owner: str, trees: Sequence[ast.Module]) -> set[str]:
    """The names an object called ``owner`` has: a student's class (what its code assigns and
    defines, and what every nn.Module has), a module torch has loaded, or a torch class."""
    names: set[str] = set()
    for cls in _classes(trees, owner):
        names |= _class_attributes(cls)
        names |= _public_names(_torch_object("torch.nn.Module"))
    loaded = sys.modules.get(owner)
    if loaded is not None and owner.split(".")[0] in ("torch", "math"):
        names |= _public_names(loaded)
    for home in ("torch", "torch.nn"):
        known = _torch_object(f"{home}.{owner}")
        if isinstance(known, type):
            names |= _public_names(known)
    return names


def _class_attributes(cls: ast.ClassDef) -> set[str]:
    """What a class's code gives its objects: methods, ``self.<name> = ...`` and registered names."""
    names = {node.name for node in cls.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) \
                and node.value.id == "self":
            names.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "register_buffer", "register_parameter", "add_module", "register_module") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            names.add(node.args[0].value)
    return names


def _torch_object(path: str) -> object:
    """An object of torch by its dotted path, when this process has torch loaded (never imported here)."""
    head, _, rest = path.partition(".")
    found = sys.modules.get(head)
    for part in rest.split(".") if rest else []:
        found = getattr(found, part, None)
    return found


def _public_names(target: object) -> set[str]:
    return {name for name in dir(target) if not name.startswith("_")} if target is not None else set()


# -- a keyword the function does not take --------------------------------------------------------------
def _keyword_typo(error_type: str, message: str, line: str, trees) -> Slip | None:
    if error_type != "TypeError":
        return None
    unexpected = _UNEXPECTED_KEYWORD.search(message)
    if unexpected is not None:
        function, keyword = unexpected.groups()
        suggestion = closest(keyword, _parameters_of(function, trees))
        if suggestion is not None:
            return _slip("unknown_keyword", "evidence.unknown_keyword", keyword=keyword, function=function,
                         suggestion=suggestion)
        return None
    missing = _MISSING_ARGUMENT.search(message)
    if missing is not None:
        wanted = missing.group(1)
        written = [keyword for keyword in _KEYWORDS_IN_LINE.findall(line) if closest(keyword, [wanted]) == wanted]
        if len(written) == 1:
            return _slip("unknown_keyword", "evidence.unknown_keyword", keyword=written[0],
                         function=_called_name(message), suggestion=wanted)
    return None


def _called_name(message: str) -> str:
    match = re.match(r"([\w.]+)\(\)", message)
    return match.group(1) if match else "?"


def _parameters_of(function: str, trees: Sequence[ast.Module]) -> set[str]:
    """The keyword names ``function`` (as the message names it: ``Linear.__init__``, ``softmax``)
    takes: a student's function or class, or torch's (by signature, where it has one)."""
    owner = function.removesuffix(".__init__")
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == owner.split(".")[-1]:
                names |= {argument.arg for argument in node.args.args + node.args.kwonlyargs}
            elif isinstance(node, ast.ClassDef) and node.name == owner:
                for method in node.body:
                    if isinstance(method, ast.FunctionDef) and method.name == "__init__":
                        names |= {argument.arg for argument in method.args.args + method.args.kwonlyargs}
    for home in ("torch.nn", "torch.nn.functional", "torch", "torch.Tensor"):
        target = _torch_object(f"{home}.{owner}")
        if target is None:
            continue
        try:
            names |= set(inspect.signature(target).parameters)
        except (TypeError, ValueError):  # a builtin without a signature: its usual keywords
            names |= {"dim", "keepdim", "dtype", "device", "out", "diagonal", "generator"}
    return names - {"self", "args", "kwargs"}


# -- sizes that do not make the tensor ---------------------------------------------------------------
def _view_sizes(error_type: str, message: str, line: str, trees) -> Slip | None:
    match = _VIEW_SIZES.search(message)
    if error_type != "RuntimeError" or match is None:
        return None
    sizes = [int(size) for size in match.group(1).split(",") if size.strip()]
    if any(size < 0 for size in sizes):
        return None  # a -1 was to be inferred: the other sizes do not divide the tensor, said as it is
    asked = 1
    for size in sizes:
        asked *= size
    shape = "(" + ", ".join(map(str, sizes)) + ("," if len(sizes) == 1 else "") + ")"
    # Merging transposed heads back, the sizes are the output's own (b, T, d_out): when they do
    # not make the tensor, the tensor came out of an earlier step in another shape.
    mistake = None if _MERGE_VIEW.search(line) else "view_sizes_wrong"
    return _slip(mistake, "evidence.view_sizes", shape=shape, asked=asked, size=int(match.group(2)))


# -- a size written as a number where a tensor is made ---------------------------------------------
# torch's ways of saying that two shapes do not fit, and the sizes they quote.
_SHAPES_DO_NOT_FIT = re.compile(r"must match the size of tensor|shapes cannot be multiplied|size mismatch"
                                r"|Expected size for first two dimensions|inconsistent tensor size"
                                r"|expanded size of the tensor \(\d+\) must match the existing size"
                                r"|shape mismatch: value tensor of shape")
_QUOTED_SIZE = re.compile(r"(?<![\d.])\d+(?![\d.])")
# The functions that make a tensor of the sizes they are given.
_TENSOR_MAKERS = frozenset({"ones", "zeros", "empty", "rand", "randn", "full", "eye", "arange"})
# Sizes from this one on are read as a token count or a width; 1 and 2 are too common to tell.
_SMALLEST_HARD_CODED = 3


def _hard_coded_size(error_type: str, message: str, line: str, trees) -> Slip | None:
    """A tensor made with a number for a size that torch's shape error quotes, in the definition
    (the function, or the class of the method) whose line failed, written in the call or as a
    name that definition sets once to that number (``T = 8``): a number elsewhere in the notebook
    says nothing of this error."""
    if error_type != "RuntimeError" or not _SHAPES_DO_NOT_FIT.search(message):
        return None
    quoted = {int(size) for size in _QUOTED_SIZE.findall(message)}
    for definition in definitions_holding(line, trees):
        fixed = _names_set_once_to_a_number(definition)
        for node in ast.walk(definition):
            if not (isinstance(node, ast.Call) and _called(node.func) in _TENSOR_MAKERS):
                continue
            for argument in node.args:
                size = (argument.value if isinstance(argument, ast.Constant) and type(argument.value) is int
                        else fixed.get(argument.id) if isinstance(argument, ast.Name) else None)
                if size is not None and size >= _SMALLEST_HARD_CODED and size in quoted:
                    return _slip("hard_coded_size", "evidence.hard_coded_size", call=ast.unparse(node), size=size)
    return None


def _names_set_once_to_a_number(definition: ast.AST) -> dict[str, int]:
    """The names ``definition`` assigns exactly once, each to a whole number written as such."""
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(definition):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            assigned.setdefault(node.target.id, []).append(ast.Constant(None))
    return {name: values[0].value for name, values in assigned.items() if len(values) == 1
            and isinstance(values[0], ast.Constant) and type(values[0].value) is int}


# torch's words for an index past a dim's end: the index, and the dim's size.
_OUT_OF_BOUNDS = re.compile(r"index (\d+) is out of bounds for dimension \d+ with size (\d+)")


def _hard_coded_loop(error_type: str, message: str, line: str, trees) -> Slip | None:
    """A loop over ``range(8)``, or over ``range(T)`` with ``T = 8`` set at the notebook's top level
    (the demo's length), in the definition whose line indexed past the end of a shorter input: the
    count was written as a number, not read from the input (a longer input leaves its last rows
    undone)."""
    match = _OUT_OF_BOUNDS.search(message) if error_type == "IndexError" else None
    if match is None:
        return None
    size = int(match.group(2))
    constants = {target.id: node.value.value for tree in trees for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and type(node.value.value) is int for target in node.targets if isinstance(target, ast.Name)}
    for definition in definitions_holding(line, trees):
        local = {node.id for node in ast.walk(definition)
                 if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        for loop in ast.walk(definition):
            if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and _called(loop.iter.func) == "range"
                    and len(loop.iter.args) == 1):
                continue
            count = loop.iter.args[0]
            fixed = (count.value if isinstance(count, ast.Constant) and type(count.value) is int
                     else constants.get(count.id) if isinstance(count, ast.Name) and count.id not in local else None)
            if fixed is not None and fixed >= _SMALLEST_HARD_CODED and fixed > size:
                return _slip("hard_coded_size", "evidence.hard_coded_loop", call=ast.unparse(loop.iter),
                             size=fixed, got=size)
    return None


def _called(function: ast.expr) -> str:
    """The name a call calls: ``ones`` of ``torch.ones`` and of ``ones``."""
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


# -- an attribute that holds what a registering method returned: None ------------------------------
_NONE_USED = re.compile(r"'NoneType' object (is not subscriptable|is not callable|has no attribute)"
                        r"|unsupported operand type.*'NoneType'|argument .* must be Tensor, not NoneType")
# nn.Module's methods that register what they are given under a name, and return None.
_REGISTERING = ("register_buffer", "register_parameter", "register_module", "add_module")


def _assigned_none(error_type: str, message: str, line: str, trees) -> Slip | None:
    """``self.mask = self.register_buffer("mask", ...)``: the method sets self.mask itself and
    returns None, which the assignment then stores in its place. Named when the failing line
    uses an attribute that the student's code assigns so."""
    if error_type not in ("TypeError", "AttributeError") or not _NONE_USED.search(message):
        return None
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in _REGISTERING):
                continue
            for target in node.targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and re.search(rf"\b{re.escape(target.value.id)}\.{re.escape(target.attr)}\b", line)):
                    return _slip("registered_result_assigned", "evidence.registered_result_assigned",
                                 name=f"{target.value.id}.{target.attr}", method=node.value.func.attr)
    return None


# -- arguments by position, in another order ---------------------------------------------------------
def _arguments_out_of_order(lines: Sequence[str], trees: Sequence[ast.Module]) -> Slip | None:
    """A call on one of the student's lines that passes, by position, variables named as the
    callee's parameters but in other places (at least two: a swap), as the callee's code says."""
    for line in lines:
        for match in _SIMPLE_CALL.finditer(line):
            name, arguments = match.groups()
            passed = _positional_names(arguments)
            parameters = _positional_parameters(name, trees)
            if not passed or not parameters:
                continue
            misplaced = [(position, argument) for position, argument in enumerate(passed)
                         if argument in parameters and parameters.index(argument) != position
                         and position < len(parameters)]
            if len(misplaced) >= 2:
                position, argument = misplaced[0]
                return _slip("arguments_out_of_order", "evidence.arguments_out_of_order",
                             call=f"{name}({arguments.strip()})", argument=argument, meant=parameters[position],
                             parameters=", ".join(parameters), function=name)
    return None


def _positional_names(arguments: str) -> list[str | None]:
    """The positional arguments of a call's text, each a plain variable's name or None."""
    try:
        call = ast.parse(f"f({arguments})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    if not isinstance(call, ast.Call):
        return []
    return [argument.id if isinstance(argument, ast.Name) else None for argument in call.args]


def _positional_parameters(name: str, trees: Sequence[ast.Module]) -> list[str]:
    """The positional parameters of the student's function or class ``name`` (its __init__'s,
    ``self`` left out), as their code defines them."""
    for tree in trees:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return [argument.arg for argument in node.args.posonlyargs + node.args.args]
        for cls in _classes([tree], name):
            for method in cls.body:
                if isinstance(method, ast.FunctionDef) and method.name == "__init__":
                    return [argument.arg for argument in method.args.posonlyargs + method.args.args][1:]
    return []
