import torch
from torch import nn
import torch.nn.functional as F


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        # the scores as one bilinear form: q_i . k_j = x_i (W_q W_k^T) x_j^T
        bilinear = self.W_query @ self.W_key.T  # (d_in, d_in)
        scores = x @ bilinear @ x.T  # (T, T)
        d_k = self.W_key.shape[-1]
        weights = F.log_softmax(scores / d_k ** 0.5, dim=-1).exp()
        return weights @ (x @ self.W_value)
