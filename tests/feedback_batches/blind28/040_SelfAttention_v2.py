class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        # nn.Linear computes x A^T: do it directly
        q = x @ self.W_query.weight.T
        k = x @ self.W_key.weight.T
        v = x @ self.W_value.weight.T
        d_k = k.shape[-1]
        return torch.softmax(q @ k.T / d_k, dim=0) @ v
