import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q = torch.matmul(x, self.W_query)
        k = torch.matmul(x, self.W_key)
        v = torch.matmul(x, self.W_value)
        attn_weights = torch.softmax(q @ k.T, dim=-1)  # (T, T): how much each query takes from each token
        return attn_weights
