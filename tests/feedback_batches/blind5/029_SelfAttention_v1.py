import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        Q = torch.matmul(x, self.W_query)
        K = torch.matmul(x, self.W_key)
        V = torch.matmul(x, self.W_value)
        A = torch.softmax(torch.matmul(Q, K.T) / K.shape[1] ** 0.5, dim=0)
        return torch.matmul(A, V)
