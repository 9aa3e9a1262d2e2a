import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))
        self.scale = self.W_key.shape[1] ** -0.5  # a plain float, not state

    def forward(self, x):
        q = torch.matmul(x, self.W_query)
        k = torch.matmul(x, self.W_key)
        v = torch.matmul(x, self.W_value)
        s = (q @ k.mT) * self.scale
        s = s - s.amax(dim=-1, keepdim=True)  # stable softmax written out
        e = s.exp()
        return (e / e.sum(dim=-1, keepdim=True)) @ v
