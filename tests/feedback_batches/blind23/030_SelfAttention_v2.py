import torch
from torch import nn


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(in_features=d_in, out_features=d_out, bias=bool(qkv_bias))
        self.W_key = nn.Linear(in_features=d_in, out_features=d_out, bias=bool(qkv_bias))
        self.W_value = nn.Linear(in_features=d_in, out_features=d_out, bias=bool(qkv_bias))

    def forward(self, x):
        batch = x.unsqueeze(0)  # a batch of one sequence for bmm
        q, k, v = self.W_query(batch), self.W_key(batch), self.W_value(batch)
        scores = torch.bmm(q, k.transpose(1, 2)) / k.shape[-1] ** 0.5
        return torch.bmm(torch.softmax(scores, dim=2), v).squeeze(0)
