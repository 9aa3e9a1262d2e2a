import math


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):
            self.add_module(name, nn.Linear(d_in, d_out, bias=qkv_bias))

    def forward(self, x):
        q, k, v = (layer(x) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.inner(q, k)  # inner product of every row of q with every row of k
        return scores.div(math.sqrt(k.size(-1))).softmax(dim=-1) @ v
