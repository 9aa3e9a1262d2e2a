import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = torch.rand(d_in, d_out, requires_grad=True)
        self.W_key = torch.rand(d_in, d_out, requires_grad=True)
        self.W_value = torch.rand(d_in, d_out, requires_grad=True)

    def forward(self, x):
        queries = x @ self.W_query
        keys = x @ self.W_key
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores, dim=-1)
        return attn_weights
