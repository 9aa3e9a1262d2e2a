"""The wire format between the trusted grader and a sandboxed worker: data only, never code.

A message is a JSON header plus a safetensors blob. Values are encoded as tagged JSON:
tensors point into the blob, objects the trusted side may not hold (a student's module)
travel as numbered references. Decoding builds only plain Python values and tensors,
so nothing a student writes can run in the trusted process.
"""

from __future__ import annotations

import json
import math
import socket
import struct
import time
from dataclasses import dataclass

import torch

from autograder.worker.text import clean_text

# Budgets: whatever a worker sends is bounded before the trusted side spends memory or time on it.
# Frames larger than this are refused: a reply that big is a student's memory bomb, not an answer.
MAX_FRAME_BYTES = 512 * 1024 * 1024
MAX_HEADER_BYTES = 8 * 1024 * 1024  # the JSON header: tensors travel in the blob
MAX_TENSOR_INDEX_BYTES = 1024 * 1024  # the blob's own JSON index: about ten thousand tensors at most
MAX_VALUE_NODES = 100_000  # values (lists, dicts, numbers, texts) in one message
MAX_VALUE_DEPTH = 64
MAX_TEXT_CHARS = 1_000  # one text value (a name, a device); messages have their own caps
MAX_DIMENSIONS = 64  # torch's own limit on a tensor's dimensions
_LENGTHS = struct.Struct("!II")  # header bytes, tensor blob bytes
MAX_TYPE_NAME_CHARS = 100


class ProtocolError(Exception):
    """A frame that is not well-formed data."""


@dataclass(frozen=True)
class RemoteRef:
    """An object that lives in the worker (a module, a generator, anything not plain data)."""

    ref_id: int
    type_name: str


@dataclass(frozen=True)
class Seeded:
    """Ask the worker for a ``torch.Generator`` on ``device`` seeded with ``seed``."""

    seed: int
    device: str = "cpu"


@dataclass(frozen=True)
class ForeignValue:
    """A value of a type that cannot cross (a Tensor subclass, a look-alike object)."""

    type_name: str


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _dtype_from_name(name: str) -> torch.dtype:
    dtype = getattr(torch, name, None)
    if not isinstance(dtype, torch.dtype):
        raise ProtocolError(f"unknown dtype {name!r}")
    return dtype


class Encoder:
    """Turns values into tagged JSON plus a dict of tensors for one message."""

    def __init__(self, make_ref=None):
        self.tensors: dict[str, torch.Tensor] = {}
        self._make_ref = make_ref  # worker side: stores an object and returns its RemoteRef

    def encode(self, value):
        if value is None or isinstance(value, (bool, str)):
            return value
        if type(value) is int:
            return value
        if type(value) is float:
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, torch.Tensor):
            return self._encode_tensor(value)
        if type(value) in (list, tuple, torch.Size):
            tag = "list" if type(value) is list else "tuple"
            return {tag: [self.encode(item) for item in value]}
        if type(value) is dict and all(type(key) is str for key in value):
            return {"dict": {key: self.encode(item) for key, item in value.items()}}
        if isinstance(value, torch.dtype):
            return {"dtype": _dtype_name(value)}
        if isinstance(value, torch.device):
            return {"device": str(value)}
        if isinstance(value, RemoteRef):
            return {"ref": value.ref_id, "type": value.type_name}
        if isinstance(value, Seeded):
            return {"generator": value.seed, "device": value.device}
        if isinstance(value, tuple):  # named tuples such as load_state_dict's result
            return {"tuple": [self.encode(item) for item in value]}
        if self._make_ref is not None:
            return self.encode(self._make_ref(value))
        raise ProtocolError(f"cannot send a value of type {type(value).__name__}")

    def _encode_tensor(self, tensor: torch.Tensor):
        if type(tensor) not in (torch.Tensor, torch.nn.Parameter):
            if self._make_ref is not None:
                return {"foreign": type(tensor).__name__}
            raise ProtocolError("only plain tensors can be sent")
        info = {
            "dtype": _dtype_name(tensor.dtype),
            "device": str(tensor.device),
            "shape": list(tensor.shape),
            "requires_grad": bool(tensor.requires_grad),
        }
        if tensor.device.type == "meta":
            return {"meta_tensor": info}
        key = f"t{len(self.tensors)}"
        self.tensors[key] = tensor.detach().to("cpu").contiguous()
        return {"tensor": key, **info}


def _type_name(name) -> str:
    """A type name as the worker reports it, cut short: a student's class may have any name,
    and failure messages (kept in results and feedback) quote it."""
    return clean_text(str(name), MAX_TYPE_NAME_CHARS)


def _shape(info: dict) -> list[int]:
    shape = info["shape"]
    if not isinstance(shape, list) or len(shape) > MAX_DIMENSIONS:
        raise ProtocolError(f"a tensor with more than {MAX_DIMENSIONS} dimensions")
    return [int(size) for size in shape]


class Decoder:
    """Rebuilds values from tagged JSON; only data types, never objects of the sender's choice."""

    def __init__(self, tensors: dict[str, torch.Tensor], resolve_ref=None, make_generator=None,
                 place_tensor=None):
        self.tensors = tensors
        self._resolve_ref = resolve_ref
        self._make_generator = make_generator
        self._place_tensor = place_tensor
        self._nodes = 0  # spent of MAX_VALUE_NODES

    def decode(self, value, depth: int = 0):
        """The value, built within this message's budgets (ProtocolError beyond them)."""
        self._nodes += 1
        if self._nodes > MAX_VALUE_NODES or depth > MAX_VALUE_DEPTH:
            raise ProtocolError(f"a reply of more than {MAX_VALUE_NODES:,} values, or nested over"
                                f" {MAX_VALUE_DEPTH} deep")
        if isinstance(value, str):
            return clean_text(value, MAX_TEXT_CHARS)
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, list):
            raise ProtocolError("bare JSON lists are not part of the protocol")
        if not isinstance(value, dict) or len(value) == 0:
            raise ProtocolError("malformed value")
        if "float" in value:
            if value["float"] not in ("inf", "-inf", "nan"):
                raise ProtocolError("malformed float")
            return float(value["float"])
        if "list" in value:
            return [self.decode(item, depth + 1) for item in _items(value["list"])]
        if "tuple" in value:
            return tuple(self.decode(item, depth + 1) for item in _items(value["tuple"]))
        if "dict" in value:
            entries = value["dict"]
            if not isinstance(entries, dict):
                raise ProtocolError("malformed dict")
            return {clean_text(str(key), MAX_TEXT_CHARS): self.decode(item, depth + 1) for key, item in entries.items()}
        if "tensor" in value:
            return self._decode_tensor(value)
        if "meta_tensor" in value:
            info = value["meta_tensor"]
            return torch.empty(_shape(info), dtype=_dtype_from_name(info["dtype"]), device="meta")
        if "dtype" in value:
            return _dtype_from_name(value["dtype"])
        if "device" in value and len(value) == 1:
            return torch.device(str(value["device"]))
        if "ref" in value:
            ref = RemoteRef(int(value["ref"]), _type_name(value.get("type", "object")))
            return self._resolve_ref(ref) if self._resolve_ref else ref
        if "generator" in value:
            seeded = Seeded(int(value["generator"]), str(value.get("device", "cpu")))
            return self._make_generator(seeded) if self._make_generator else seeded
        if "foreign" in value:
            return ForeignValue(_type_name(value["foreign"]))
        raise ProtocolError(f"unknown value tag {sorted(value)[0]!r}")

    def _decode_tensor(self, info: dict) -> torch.Tensor:
        tensor = self.tensors.get(info["tensor"])
        if tensor is None:
            raise ProtocolError("a tensor is missing from the message")
        expected_shape = _shape(info)
        if list(tensor.shape) != expected_shape or _dtype_name(tensor.dtype) != info["dtype"]:
            raise ProtocolError("a tensor's header does not match its data")
        if self._place_tensor is not None:
            return self._place_tensor(tensor, str(info["device"]), bool(info["requires_grad"]))
        return tensor


def _items(items) -> list:
    if not isinstance(items, list):
        raise ProtocolError("malformed list")
    return items


@dataclass
class Message:
    """A decoded frame: the JSON header and the tensors it refers to."""

    header: dict
    tensors: dict[str, torch.Tensor]


def _frame_pieces(header: dict, tensors: dict[str, torch.Tensor]) -> list:
    """A frame as the pieces it is sent in: the sizes, the JSON header, then the tensors in
    safetensors' layout (an 8-byte index size, a JSON index of dtype, shape and byte offsets
    padded to 8 bytes, then each tensor's bytes), each tensor's bytes a view of the tensor itself."""
    # Keys stay in their order: a dict's order is data (a module built from one holds its
    # parameters in that order, as the notebook's do, and code may iterate them).
    header_bytes = json.dumps(header, allow_nan=False).encode()
    blob: list = []
    if tensors:
        index, offset = {}, 0
        for name, tensor in tensors.items():
            data = _bytes_of(tensor)
            index[name] = {"dtype": _SAFETENSORS_NAMES[tensor.dtype], "shape": list(tensor.shape),
                           "data_offsets": [offset, offset + data.nbytes]}
            offset += data.nbytes
            blob.append(data)
        index_bytes = json.dumps(index, separators=(",", ":")).encode()
        index_bytes += b" " * (-len(index_bytes) % 8)  # the data starts aligned, as safetensors writes it
        blob = [len(index_bytes).to_bytes(8, "little"), index_bytes, *blob]
    blob_size = sum(len(piece) if isinstance(piece, bytes) else piece.nbytes for piece in blob)
    return [_LENGTHS.pack(len(header_bytes), blob_size), header_bytes, *blob]


def _bytes_of(tensor: torch.Tensor) -> memoryview:
    """A contiguous CPU tensor's bytes, without a copy."""
    if tensor.dtype not in _SAFETENSORS_NAMES:
        raise ProtocolError(f"cannot send a tensor of dtype {_dtype_name(tensor.dtype)}")
    return memoryview(tensor.reshape(-1).view(torch.uint8).numpy())


def pack(header: dict, tensors: dict[str, torch.Tensor]) -> bytes:
    """A whole frame, as one bytes object."""
    return b"".join(_frame_pieces(header, tensors))


def send(sock: socket.socket, header: dict, tensors: dict[str, torch.Tensor]) -> None:
    """Send a frame; its tensors' bytes go from the tensors to the socket, not through a copy."""
    pieces = [memoryview(piece) for piece in _frame_pieces(header, tensors)]
    while pieces:
        sent = sock.sendmsg(pieces)
        while pieces and sent >= pieces[0].nbytes:
            sent -= pieces.pop(0).nbytes
        if pieces:
            pieces[0] = pieces[0][sent:]


def _receive_into(sock: socket.socket, buffer: memoryview, deadline: float | None) -> None:
    """Fill ``buffer`` from ``sock``: the bytes land where they stay, with no copy on the way."""
    received = 0
    while received < len(buffer):
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no whole message before the deadline")
            sock.settimeout(remaining)
        count = sock.recv_into(buffer[received:], min(len(buffer) - received, 1 << 20))
        if not count:
            raise EOFError("the other side closed the connection")
        received += count


def receive(sock: socket.socket, max_bytes: int = MAX_FRAME_BYTES, deadline: float | None = None,
            max_header_bytes: int = MAX_HEADER_BYTES) -> Message:
    """Read one frame of at most ``max_bytes`` (its JSON header at most ``max_header_bytes``);
    raises EOFError when the peer is gone and ProtocolError on bad data.

    The sizes are checked before anything is allocated; the frame is then received into one
    buffer, which its tensors share (``unpack_buffer``): what the reader spends on a frame is
    the frame, its header's JSON and nothing more. With a ``deadline`` (a ``time.monotonic()``
    value) the whole frame must arrive by then, or TimeoutError: a peer that trickles one byte at
    a time cannot hold the reader forever.
    """
    lengths = bytearray(_LENGTHS.size)
    _receive_into(sock, memoryview(lengths), deadline)
    header_size, blob_size = _LENGTHS.unpack(lengths)
    if header_size + blob_size > max_bytes:
        raise ProtocolError(f"a reply of {(header_size + blob_size) / 2**20:.1f} MiB, over the"
                            f" {max_bytes / 2**20:g} MiB this probe's answer can take")
    if header_size > max_header_bytes:
        raise ProtocolError(f"a reply whose header alone is {header_size / 2**20:.1f} MiB")
    body = bytearray(header_size + blob_size)
    _receive_into(sock, memoryview(body), deadline)
    return unpack_buffer(body, header_size)


def unpack(frame: bytes) -> Message:
    """Parse one whole frame (as made by ``pack``) into a Message (its tensors own a copy)."""
    header_size, blob_size = _LENGTHS.unpack_from(frame)
    if len(frame) != _LENGTHS.size + header_size + blob_size:
        raise ProtocolError("the frame is truncated")
    return unpack_buffer(bytearray(frame[_LENGTHS.size:]), header_size)


def unpack_buffer(body: bytearray, header_size: int) -> Message:
    """Parse a frame's body (its JSON header, then a safetensors blob) into a Message whose tensors
    are views of ``body``: no tensor's bytes are copied."""
    if header_size > MAX_HEADER_BYTES:
        raise ProtocolError(f"a header of {header_size / 2**20:.0f} MiB")
    view = memoryview(body)
    try:
        header = json.loads(view[:header_size].tobytes())
    except (ValueError, RecursionError) as error:  # also too deep, or an int with too many digits
        raise ProtocolError(f"the header is not JSON the grader accepts ({str(error)[:200]})") from None
    if not isinstance(header, dict):
        raise ProtocolError("the header is not a JSON object")
    return Message(header, _tensors_in(body, header_size))


# safetensors' names of the dtypes a plain tensor may have (its format's "dtype" field).
_SAFETENSORS_DTYPES = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
                       "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
                       "U8": torch.uint8, "BOOL": torch.bool, "C64": torch.complex64}
_SAFETENSORS_NAMES = {dtype: name for name, dtype in _SAFETENSORS_DTYPES.items()}


def _tensors_in(body: bytearray, start: int) -> dict[str, torch.Tensor]:
    """The tensors of the safetensors blob at ``body[start:]`` (written by safetensors' ``save``:
    an 8-byte index size, a JSON index of dtype, shape and byte offsets, then the data), as views
    of ``body``. Every offset and size is checked against the index before a tensor is made."""
    blob = memoryview(body)[start:]
    if not blob:
        return {}
    if len(blob) < 8:
        raise ProtocolError("the tensor data is truncated")
    index_size = int.from_bytes(blob[:8], "little")
    if index_size > MAX_TENSOR_INDEX_BYTES or 8 + index_size > len(blob):
        raise ProtocolError("the tensor data declares too many tensors")
    try:
        index = json.loads(blob[8:8 + index_size].tobytes())
        tensors = {name: _tensor_view(body, start + 8 + index_size, len(blob) - 8 - index_size, info)
                   for name, info in index.items() if name != "__metadata__"}
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        raise ProtocolError(f"the tensor data is corrupt ({str(error)[:200]})") from None
    return tensors


def _tensor_view(body: bytearray, data_start: int, data_size: int, info: dict) -> torch.Tensor:
    dtype = _SAFETENSORS_DTYPES.get(info["dtype"])
    shape = [int(size) for size in info["shape"]]
    begin, end = (int(offset) for offset in info["data_offsets"])
    if dtype is None or len(shape) > MAX_DIMENSIONS or min(shape, default=0) < 0:
        raise ValueError(f"a tensor of dtype {str(info['dtype'])[:20]} and {len(shape)} dimensions")
    count = math.prod(shape)
    if not 0 <= begin <= end <= data_size or end - begin != count * dtype.itemsize:
        raise ValueError("a tensor's bytes lie outside the data, or do not fit its shape")
    if count == 0:
        return torch.empty(shape, dtype=dtype)
    if dtype is torch.bool:  # any byte but 0 and 1 would make an invalid bool: read the bytes as bytes
        raw = torch.frombuffer(body, dtype=torch.uint8, count=count, offset=data_start + begin)
        return (raw != 0).view(shape)
    tensor = torch.frombuffer(body, dtype=dtype, count=count, offset=data_start + begin).view(shape)
    # A view whose start is not aligned to its element size is copied: some kernels assume it.
    return tensor if tensor.data_ptr() % dtype.itemsize == 0 else tensor.clone()
