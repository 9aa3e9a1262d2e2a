import math

import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    """Single-head causal attention; the causal mask is kept as an additive bias buffer
    (0 where a query may look, -inf above the diagonal), as in many Hugging Face models."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        attn_bias = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("attn_bias", attn_bias)

    def forward(self, hidden_states):
        T = hidden_states.shape[-2]
        query = self.W_query(hidden_states)
        key = self.W_key(hidden_states)
        value = self.W_value(hidden_states)
        scores = torch.matmul(query, key.transpose(-1, -2)) + self.attn_bias[:T, :T]
        probs = torch.softmax(scores / math.sqrt(key.shape[-1]), dim=-1)
        probs = self.dropout(probs)
        return torch.matmul(probs, value)
