class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.h = num_heads
        self.hd = d_out // num_heads
        self.W_query, self.W_key, self.W_value = (nn.Linear(d_in, d_out, bias=qkv_bias) for _ in range(3))
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 where visible, -inf above the diagonal
        self.register_buffer("bias", torch.full((context_length, context_length), -math.inf).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        q = split_heads(self.W_query(x), self.h).flatten(0, 1)  # (b*h, T, hd)
        k = split_heads(self.W_key(x), self.h).flatten(0, 1)
        v = split_heads(self.W_value(x), self.h).flatten(0, 1)
        # baddbmm: bias + (q @ kᵀ) / sqrt(hd), every (batch, head) pair at once
        scores = torch.baddbmm(self.bias[:T, :T].expand(b * self.h, T, T), q, k.transpose(1, 2), alpha=1 / math.sqrt(self.hd))
        weights = self.dropout(scores.softmax(dim=-1).view(b, self.h, T, T))
        context = weights @ v.view(b, self.h, T, self.hd)
        return self.out_proj(merge_heads(context))
