class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        for name in ("W_query", "W_key", "W_value"):  # in the book's order
            setattr(self, name, nn.Linear(d_in, d_out, bias=qkv_bias))

    def forward(self, x):
        q, k, v = torch.stack((self.W_query(x), self.W_key(x), self.W_value(x))).unbind(0)
        s = q @ k.T / k.shape[-1] ** 0.5
        weights = torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True))
        return weights @ v
