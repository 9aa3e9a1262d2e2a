import math

class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        # additive mask: 0 on and below the diagonal, -inf above it (a later key)
        self.register_buffer("additive_mask", torch.full((context_length, context_length), -math.inf).triu(1))

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        # mask + (q @ k^T) / sqrt(d_k) for every sequence of the batch in one call
        scores = torch.baddbmm(self.additive_mask[:T, :T].expand(b, T, T), q, k.transpose(1, 2),
                               alpha=1 / math.sqrt(k.shape[-1]))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        return torch.bmm(weights, v)
