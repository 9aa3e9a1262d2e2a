class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        d_k = self.W_key.in_features
        attn_scores = self.W_query(x) @ self.W_key(x).T
        attn_weights = torch.softmax(attn_scores / d_k ** 0.5, dim=-1)
        return attn_weights.T @ self.W_value(x)
