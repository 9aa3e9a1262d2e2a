class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in: int, d_out: int, context_length: int, dropout: float, qkv_bias: bool = False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        idx = torch.arange(context_length)
        self.register_buffer("mask", idx[None, :] > idx[:, None], persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        T = x.size(1)
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        s = torch.matmul(q, k.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        s = s / k.size(-1) ** 0.5
        e = torch.exp(s - s.amax(dim=-1, keepdim=True))
        w = self.dropout(e / e.sum(dim=-1, keepdim=True))
        return torch.matmul(w, v)
