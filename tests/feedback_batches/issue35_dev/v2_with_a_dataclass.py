from dataclasses import dataclass


@dataclass
class Projections:
    d_in: int
    d_out: int
    bias: bool = False

    def linear(self):
        return nn.Linear(self.d_in, self.d_out, bias=self.bias)


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        config = Projections(d_in, d_out, qkv_bias)
        self.W_query = config.linear()
        self.W_key = config.linear()
        self.W_value = config.linear()

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
