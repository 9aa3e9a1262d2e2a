class CausalAttention(nn.Module):
    """Causal attention with an additive mask buffer folded into one baddbmm."""

    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # 0 where a query may look, -inf on the future: added to the scores instead of masked_fill
        self.register_buffer("additive_mask", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        bias = self.additive_mask[:T, :T].expand(b, T, T)
        scores = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=k.shape[-1] ** -0.5)  # bias + s / sqrt(d)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
