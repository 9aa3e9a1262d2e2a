class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # additive form of the mask: 0 where a query may look, -inf on the future
        self.register_buffer("additive_mask", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        T = x.shape[-2]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5 + self.additive_mask[:T, :T]
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return weights @ v
