class CausalAttention(nn.Module):
    """Single-head causal self-attention over a batch."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 where a key is visible, -inf where it comes later
        additive = torch.full((context_length, context_length), float("-inf")).triu(1)
        self.register_buffer("additive_mask", additive)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5 + self.additive_mask[:T, :T]
        return self.dropout(torch.softmax(scores, dim=-1)) @ v
