class MultiHeadAttention(nn.Module):
    """Heads folded into the batch for one baddbmm/bmm pair, with an additive causal buffer."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("neg_inf_above", torch.full((context_length, context_length), float("-inf")).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        # (b, h, T, hd) -> (b * h, T, hd): every head of every sequence is one matrix of the batch
        q, k, v = (split_heads(layer(x), self.num_heads).flatten(0, 1)
                   for layer in (self.W_query, self.W_key, self.W_value))
        bias = self.neg_inf_above[:T, :T].expand(q.shape[0], T, T)
        scores = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=q.shape[-1] ** -0.5)
        weights = self.dropout(scores.softmax(dim=-1))
        context = torch.bmm(weights, v).unflatten(0, (b, self.num_heads))  # (b, h, T, hd)
        return self.out_proj(merge_heads(context))
