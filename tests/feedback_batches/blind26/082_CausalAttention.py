class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # True where a query may look: the lower triangle, diagonal included
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        T = x.shape[1]
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = torch.bmm(queries, keys.transpose(1, 2)).div(keys.size(-1) ** 0.5)
        scores = scores.masked_fill(~self.visible[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, values)
