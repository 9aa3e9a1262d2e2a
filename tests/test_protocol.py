"""The wire format: safetensors' layout written and read by the kit itself, without copies, and
every size checked before anything is allocated."""

from __future__ import annotations

import socket
import struct
import threading

import pytest
import torch
from safetensors.torch import load, save

from autograder.worker import protocol

TENSORS = {"floats": torch.randn(3, 4), "longs": torch.arange(5), "scalar": torch.tensor(2.5, dtype=torch.float64),
           "mask": torch.ones(2, 2, dtype=torch.bool).triu(), "strided": torch.randn(4, 6)[:, 1:3],
           "empty": torch.zeros(0, 3), "brain": torch.randn(3).to(torch.bfloat16)}


def _round_trip(tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    encoder = protocol.Encoder()
    header = {"value": encoder.encode(tensors)}
    message = protocol.unpack(protocol.pack(header, encoder.tensors))
    return protocol.Decoder(message.tensors).decode(message.header["value"])


def test_every_plain_dtype_crosses_unchanged():
    back = _round_trip(TENSORS)
    for name, tensor in TENSORS.items():
        assert back[name].dtype == tensor.dtype
        assert torch.equal(back[name], tensor), name


def test_a_dicts_order_crosses_unchanged():
    """A container's parameters arrive in the notebook's order (W_query before W_key), not sorted:
    a copy that pairs them by position must meet them as a student's module holds them (blind12/047)."""
    ordered = {"W_query": torch.zeros(1), "W_key": torch.ones(1), "W_value": torch.zeros(2)}
    assert list(_round_trip(ordered)) == ["W_query", "W_key", "W_value"]


def test_the_blob_is_safetensors_both_ways():
    encoder = protocol.Encoder()
    frame = protocol.pack({"value": encoder.encode(TENSORS)}, encoder.tensors)
    header_size, _ = struct.unpack("!II", frame[:8])
    ours = load(bytes(frame[8 + header_size:]))  # safetensors reads what the kit wrote
    assert all(torch.equal(ours[key], tensor) for key, tensor in encoder.tensors.items())
    blob = save({"t0": torch.randn(2, 3)})
    header = b'{"value":{"tensor":"t0","dtype":"float32","device":"cpu","shape":[2,3],"requires_grad":false}}'
    message = protocol.unpack(struct.pack("!II", len(header), len(blob)) + header + blob)  # and the other way
    assert torch.equal(message.tensors["t0"], load(blob)["t0"])


def test_received_tensors_share_the_one_receive_buffer():
    left, right = socket.socketpair()
    big = {"weights": torch.randn(768, 3072)}
    encoder = protocol.Encoder()
    header = {"value": encoder.encode(big)}
    sender = threading.Thread(target=protocol.send, args=(left, header, encoder.tensors))
    sender.start()
    message = protocol.receive(right)
    sender.join()
    received = message.tensors["t0"]
    assert torch.equal(received, big["weights"])
    received[0, 0] = 42.0  # a writable view of the buffer, not of anything the sender holds
    assert big["weights"][0, 0] != 42.0


@pytest.mark.parametrize("index", [
    '{"t0":{"dtype":"F32","shape":[4],"data_offsets":[0,64]}}',  # more bytes than the shape
    '{"t0":{"dtype":"F32","shape":[1000],"data_offsets":[0,4000]}}',  # past the data
    '{"t0":{"dtype":"X9","shape":[1],"data_offsets":[0,4]}}',  # no such dtype
    '{"t0":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}',
    '[1, 2]',
])
def test_a_corrupt_tensor_index_is_refused_before_any_tensor_is_made(index):
    padded = index.encode() + b" " * (-len(index) % 8)
    blob = len(padded).to_bytes(8, "little") + padded + bytes(16)
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(struct.pack("!II", 2, len(blob)) + b"{}" + blob)


def test_a_reply_over_its_bound_is_refused_from_its_first_bytes():
    left, right = socket.socketpair()
    left.sendall(struct.pack("!II", 10, 500 * 2**20) + b"{}")  # announces 500 MiB, sends none of it
    with pytest.raises(protocol.ProtocolError, match="over the 16 MiB"):
        protocol.receive(right, max_bytes=16 * 2**20)
