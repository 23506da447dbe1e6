// ES2024 String methods that Node 20 (V8 11.3) has but the ES2023 lib does not declare.
interface String {
  isWellFormed(): boolean;
}
