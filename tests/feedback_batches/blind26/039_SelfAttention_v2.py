class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        make = lambda: nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_query = make()
        self.W_key = make()
        self.W_value = make()

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = q @ k.T / k.shape[-1] ** 0.5
        # softmax written with logsumexp: exp(s - log(sum(exp(s))))
        weights = torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True))
        return weights @ v
