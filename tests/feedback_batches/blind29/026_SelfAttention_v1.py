import functools


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices, registered by name in a loop."""

    def __init__(self, d_in, d_out):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # this order fixes which random numbers each gets
            self.register_parameter(name, nn.Parameter(torch.rand(d_in, d_out)))

    def forward(self, x):
        chain = lambda *mats: functools.reduce(torch.matmul, mats)
        scores = chain(x, self.W_query, self.W_key.T, x.T)  # (T, T)
        weights = torch.softmax(scores / self.W_key.shape[1] ** 0.5, dim=-1)
        return chain(weights, x, self.W_value)  # (T, d_out)
