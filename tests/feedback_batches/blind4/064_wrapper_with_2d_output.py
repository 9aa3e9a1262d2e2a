import torch
from torch import nn


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    num_heads = 2
    per_head = 2 // num_heads  # the wrapper's d_out is per head: 1 feature each
    return MultiHeadAttentionWrapper(
        d_in=d_in, d_out=per_head, context_length=context_length, dropout=dropout, num_heads=num_heads
    )
