class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W = nn.ParameterDict({
            name: nn.Parameter(torch.rand(d_in, d_out)) for name in ("query", "key", "value")
        })

    def forward(self, x):
        q, k, v = (x @ self.W[name] for name in ("query", "key", "value"))
        weights = torch.softmax(q @ k.T, dim=-1) / k.shape[-1] ** 0.5
        return weights @ v
