class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"num_heads={num_heads} does not divide d_out={d_out}")
        self.h, self.hd = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        future = torch.ones(context_length, context_length, dtype=torch.bool).triu(1)
        self.register_buffer("neg_inf_above", torch.zeros(context_length, context_length).masked_fill(future, float("-inf")))

    def forward(self, x):
        b, T, _ = x.shape

        def heads_as_batch(t):            # (b, T, d_out) -> (b * h, T, hd)
            return t.view(b, T, self.h, self.hd).transpose(1, 2).reshape(b * self.h, T, self.hd)

        q, k, v = (heads_as_batch(layer(x)) for layer in (self.W_query, self.W_key, self.W_value))
        bias = self.neg_inf_above[:T, :T].expand(b * self.h, T, T)
        scores = torch.baddbmm(bias, q, k.transpose(1, 2), alpha=self.hd ** -0.5)
        weights = self.dropout(scores.softmax(dim=-1).view(b, self.h, T, T))    # dropout sees (b, h, T, T)
        context = torch.bmm(weights.reshape(b * self.h, T, T), v).view(b, self.h, T, self.hd)
        return self.out_proj(context.transpose(1, 2).reshape(b, T, self.h * self.hd))
